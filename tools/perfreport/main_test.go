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

// With -count, a cell's fastest run is the one reported, in the order the
// cells first came.
func TestParseKeepsEachCellsFastestRun(t *testing.T) {
	out := `BenchmarkSchedulingCurve/pods=1000/nodes=100-2 1 300000000 ns/op 27 MB-heap 3333 pods/s
BenchmarkSchedulingCurve/pods=1000/nodes=500-2 1 500000000 ns/op 49 MB-heap 2000 pods/s
BenchmarkSchedulingCurve/pods=1000/nodes=100-2 1 250000000 ns/op 26 MB-heap 4000 pods/s
BenchmarkSchedulingCurve/pods=1000/nodes=500-2 1 700000000 ns/op 50 MB-heap 1429 pods/s
`
	pts, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].nodes != 100 || pts[0].seconds != 0.25 || pts[0].heapMB != 26 || pts[1].nodes != 500 || pts[1].seconds != 0.5 {
		t.Fatalf("points %+v", pts)
	}
}
