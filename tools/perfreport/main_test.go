package main

import (
	"strings"
	"testing"
)

func TestParseBenchmarkLines(t *testing.T) {
	out := `goos: linux
BenchmarkSchedulingCurve/pods=1000/nodes=100-2   	       1	2558420285 ns/op	        75.41 MB-heap	       391.5 pods/s	228926920 B/op	 2692307 allocs/op
BenchmarkOther-2 1 5 ns/op
PASS`
	pts, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 1 {
		t.Fatalf("points %+v", pts)
	}
	p := pts[0]
	if p.pods != 1000 || p.nodes != 100 || p.seconds < 2.55 || p.seconds > 2.56 || p.podsPerSec != 391.5 || p.heapMB != 75.41 || int(p.allocMB) != 218 {
		t.Fatalf("point %+v", p)
	}
	if !strings.Contains(table(pts), "| 1000 | 100 | 2.56 s | 392 | 75 MB | 218 MB |") {
		t.Fatalf("table:\n%s", table(pts))
	}
	if svg := chart(pts); !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, "100 nodes") {
		t.Fatalf("chart:\n%s", svg)
	}
	if _, err := parse(strings.NewReader("PASS\n")); err == nil {
		t.Fatal("no benchmark lines parsed without an error")
	}
}
