package podtopologyspread

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
)

// A remembered count holds only while the node, its generation and the
// selector are the ones it was counted for.
func TestMatchCountsFollowChanges(t *testing.T) {
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	db := labels.SelectorFromSet(labels.Set{"app": "db"})
	pod := func(name, app string) *api.Pod {
		return fake.On(fake.Pod(name, map[string]string{"app": app}), "n1")
	}
	ni := framework.NewNodeInfo(pod("w1", "web"), pod("d1", "db"))
	ni.SetNode(fake.Node("n1", nil))
	m := newMatchCounts()
	count := func(sel labels.Selector, info *framework.NodeInfo) int {
		return m.count(info, sel, m.countKey(sel, "default"), "default")
	}
	steps := []struct {
		what string
		do   func() int
		want int
	}{
		{"first count", func() int { return count(web, ni) }, 1},
		{"again, unchanged", func() int { return count(web, ni) }, 1},
		{"another selector", func() int { return count(db, ni) }, 1},
		{"a pod added", func() int { ni.AddPod(pod("w2", "web")); return count(web, ni) }, 2},
		{"a pod removed", func() int { ni.RemovePod(pod("w1", "web")); return count(web, ni) }, 1},
		{"a clone with a nominated pod", func() int {
			c := ni.Clone()
			c.AddPod(pod("w3", "web"))
			return count(web, c)
		}, 2},
		{"the original again", func() int { return count(web, ni) }, 1},
		{"another namespace", func() int {
			return m.count(ni, web, m.countKey(web, "other"), "other")
		}, 0},
	}
	for _, s := range steps {
		if got := s.do(); got != s.want {
			t.Errorf("%s: counted %d, want %d", s.what, got, s.want)
		}
	}
}
