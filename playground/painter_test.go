package playground

import (
	"io"
	"reflect"
	"testing"
)

// A redraw through the painter shows what a fresh picture shows, and
// shares with the last drawing the chip of every pod that did not change,
// so the page skips them; the chip of a pod that changed is new.
func TestPainterRedrawsOnlyChangedPods(t *testing.T) {
	h, _ := newTestHost(t)
	h.Run("kubectl create deployment web --image=nginx --replicas=6; sleep 30", io.Discard, false)
	var pt painter
	l := Labels{Unscheduled: "Unscheduled", NoNodes: "No nodes", Pods: "pods"}
	chips := func(svg *El) map[string]*El {
		m := map[string]*El{}
		walk(svg, func(e *El) {
			if k := e.Attr("data-pod"); k != "" {
				m[k] = e
			}
		})
		return m
	}
	draw := func() map[string]*El {
		p := pt.snapshot(h.C)
		if fresh := Snapshot(h.C); !p.Equal(fresh) {
			t.Fatalf("the painter's picture differs from a fresh one:\n%+v\n%+v", p, fresh)
		}
		svg := pt.svg(p, l, 800)
		if fresh := p.SVGWidth(l, 800); !sameTree(svg, fresh) {
			t.Fatal("the painter's drawing differs from a fresh one")
		}
		return chips(svg)
	}
	before := draw()
	h.Run("kubectl label pod -l app=web touched=yes --overwrite >/dev/null; kubectl delete pod "+firstPod(before)+" --wait=false", io.Discard, false)
	after := draw()
	shared, changed := 0, 0
	for k, e := range after {
		if b := before[k]; b != nil && &b.Kids[0] == &e.Kids[0] {
			shared++
		} else {
			changed++
		}
	}
	// Labels do not show; the deleted pod is Terminating, its replacement new.
	if shared != len(before)-1 || changed != 2 {
		t.Errorf("%d chips shared, %d new, of %d before", shared, changed, len(before))
	}
}

// sameTree compares what two trees draw.
func sameTree(a, b *El) bool {
	if a.Tag != b.Tag || a.Text != b.Text || !reflect.DeepEqual(a.Attrs, b.Attrs) || len(a.Kids) != len(b.Kids) {
		return false
	}
	for i := range a.Kids {
		if !sameTree(a.Kids[i], b.Kids[i]) {
			return false
		}
	}
	return true
}

func firstPod(chips map[string]*El) string {
	for k := range chips {
		if len(k) > len("default/web-") && k[:len("default/web-")] == "default/web-" {
			return k[len("default/"):]
		}
	}
	return ""
}
