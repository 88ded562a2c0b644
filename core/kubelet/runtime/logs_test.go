package runtime

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// The log keeps each line's text, stream and time as written, joins a
// line written in pieces, and rotates the oldest lines away past
// maxLogLines.
func TestContainerLogLines(t *testing.T) {
	w := newWorld()
	c := &Container{rt: w.rt}
	out, errw := &lineWriter{c: c}, &lineWriter{c: c, stderr: true}
	fmt.Fprint(out, "one\ntw")
	w.advance(time.Second)
	fmt.Fprint(errw, "oops\n")
	fmt.Fprint(out, "o\n\nthree")
	out.flush()
	t1 := epoch.Add(time.Second)
	want := []LogLine{{Time: epoch, Text: "one"}, {Time: t1, Stderr: true, Text: "oops"}, {Time: t1, Text: "two"}, {Time: t1, Text: ""}, {Time: t1, Text: "three"}}
	if got := c.Logs(); !reflect.DeepEqual(got, want) {
		t.Fatalf("logs\n got %+v\nwant %+v", got, want)
	}
	for i := 0; i < maxLogLines; i++ {
		fmt.Fprintf(out, "line %d\n", i)
	}
	got := c.Logs()
	if len(got) != maxLogLines || got[0].Text != "line 0" || got[len(got)-1].Text != fmt.Sprintf("line %d", maxLogLines-1) {
		t.Fatalf("after rotation: %d lines, first %q, last %q", len(got), got[0].Text, got[len(got)-1].Text)
	}
	if (&Container{rt: w.rt}).Logs() != nil {
		t.Fatal("an empty log has lines")
	}
}

// A block of lines shared between logs reads as if written: first, after
// other lines, after part of a line, and while it rotates away.
func TestLogBlockReadsAsWritten(t *testing.T) {
	block := newLogBlock("one\n\nthree\n")
	for _, before := range []string{"", "first\n", "part"} {
		w := newWorld()
		shared, written := &Container{rt: w.rt}, &Container{rt: w.rt}
		sw, ww := &lineWriter{c: shared}, &lineWriter{c: written}
		fmt.Fprint(sw, before)
		fmt.Fprint(ww, before)
		w.advance(time.Second)
		sw.writeBlock(block)
		fmt.Fprint(ww, block.src)
		if held := shared.log.head != nil; held != (before == "") {
			t.Fatalf("before %q: block shared %v", before, held)
		}
		for i := 0; i <= maxLogLines; i++ {
			if i%(maxLogLines/4) == 0 || i == maxLogLines-1 {
				if got, want := shared.Logs(), written.Logs(); !reflect.DeepEqual(got, want) {
					t.Fatalf("before %q, %d lines on: shared log differs", before, i)
				}
			}
			fmt.Fprintf(&lineWriter{c: shared, stderr: true}, "line %d\n", i)
			fmt.Fprintf(&lineWriter{c: written, stderr: true}, "line %d\n", i)
		}
		if got, want := shared.Logs(), written.Logs(); !reflect.DeepEqual(got, want) || shared.log.head != nil {
			t.Fatalf("before %q, after rotation: shared log differs or holds the block", before)
		}
	}
}
