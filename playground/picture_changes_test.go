package playground

import (
	"strings"
	"testing"
)

// Chips of pods that are new, or new on their node, are marked to fade in.
func TestMarkChangesTagsNewPods(t *testing.T) {
	before := Picture{
		Nodes:       []NodeView{{Name: "n1", Pods: []PodView{{Namespace: "default", Name: "a"}, {Namespace: "default", Name: "moved"}}}, {Name: "n2"}},
		Unscheduled: []PodView{{Namespace: "default", Name: "waiting"}},
	}
	after := Picture{Nodes: []NodeView{
		{Name: "n1", Pods: []PodView{{Namespace: "default", Name: "a"}, {Namespace: "default", Name: "waiting"}}},
		{Name: "n2", Pods: []PodView{{Namespace: "default", Name: "moved"}, {Namespace: "default", Name: "new"}}},
	}}
	svg := after.SVGWidth(Labels{}, 800)
	after.MarkChanges(before, svg)
	var entering []string
	walk(svg, func(e *El) {
		if key := e.Attr("data-pod"); key != "" && strings.HasSuffix(e.Attr("class"), " enter") {
			entering = append(entering, key)
		}
	})
	if got := strings.Join(entering, " "); got != "default/waiting default/moved default/new" {
		t.Fatalf("entering chips %q", got)
	}
}
