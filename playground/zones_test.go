package playground

import (
	"strings"
	"testing"
)

// Nodes are grouped by zone, each group under a heading that counts its
// Ready nodes; a cluster without zones has no headings.
func TestPictureGroupsNodesByZone(t *testing.T) {
	p := Picture{Nodes: []NodeView{
		{Name: "b1", Zone: "zone-b", Status: "NotReady"},
		{Name: "x", Status: "Ready"},
		{Name: "a2", Zone: "zone-a", Status: "Ready"},
		{Name: "a1", Zone: "zone-a", Status: "Ready,SchedulingDisabled"},
	}}
	// Snapshot sorts; do the same here.
	sortNodes(p.Nodes)
	var order []string
	for _, n := range p.Nodes {
		order = append(order, n.Name)
	}
	if got := strings.Join(order, " "); got != "a1 a2 b1 x" {
		t.Fatalf("node order %q", got)
	}
	l := Labels{Zone: "zone", NoZone: "no zone", Nodes: "nodes"}
	var headings []string
	walk(p.SVGWidth(l, 800), func(e *El) {
		if strings.HasPrefix(e.Attr("class"), "zone") {
			headings = append(headings, e.Attr("class")+": "+e.Text)
		}
	})
	want := []string{
		"zone: zone zone-a · 2/2 nodes Ready",
		"zone down: zone zone-b · 0/1 nodes Ready",
		"zone: no zone · 1/1 nodes Ready",
	}
	if strings.Join(headings, "\n") != strings.Join(want, "\n") {
		t.Fatalf("headings:\n%s\nwant:\n%s", strings.Join(headings, "\n"), strings.Join(want, "\n"))
	}
	unzoned := Picture{Nodes: []NodeView{{Name: "n1", Status: "Ready"}}}
	walk(unzoned.SVGWidth(l, 800), func(e *El) {
		if strings.HasPrefix(e.Attr("class"), "zone") {
			t.Errorf("a cluster without zones has a zone heading %q", e.Text)
		}
	})
}
