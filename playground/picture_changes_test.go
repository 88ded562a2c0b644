package playground

import (
	"fmt"
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

// A picture of more than crowdedPods pods says so, and draws its pods as
// dots (no text); the page then stops fading them in and out.
func TestCrowdedPicture(t *testing.T) {
	for _, tc := range []struct {
		pods int
		want string
	}{{0, "cluster"}, {crowdedPods, "cluster"}, {crowdedPods + 1, "cluster crowded"}} {
		n := NodeView{Name: "n1"}
		for i := 0; i < tc.pods; i++ {
			n.Pods = append(n.Pods, PodView{Namespace: "default", Name: fmt.Sprintf("p%d", i)})
		}
		svg := (Picture{Nodes: []NodeView{n}}).SVGWidth(Labels{}, 800)
		if got := svg.Attr("class"); got != tc.want {
			t.Errorf("%d pods: class %q, want %q", tc.pods, got, tc.want)
		}
		texts := 0
		walk(svg, func(e *El) {
			if e.Tag == "text" && strings.HasPrefix(e.Text, "p") {
				texts++
			}
		})
		if crowded := tc.pods > crowdedPods; tc.pods > 0 && crowded != (texts == 0) {
			t.Errorf("%d pods: %d chips with their name in text", tc.pods, texts)
		}
		// Every pod is new against an empty picture: only an uncrowded one
		// fades them in.
		(Picture{Nodes: []NodeView{n}}).MarkChanges(Picture{}, svg)
		entering := 0
		walk(svg, func(e *El) {
			if strings.HasSuffix(e.Attr("class"), " enter") {
				entering++
			}
		})
		if want := map[bool]int{true: 0, false: tc.pods}[tc.pods > crowdedPods]; entering != want {
			t.Errorf("%d pods: %d chips fade in, want %d", tc.pods, entering, want)
		}
	}
}
