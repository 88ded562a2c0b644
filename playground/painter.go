package playground

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/sim"
)

// painter remembers what the last redraw of the picture computed, so the
// next one redoes only the pods whose object changed. The store hands out
// a new object for each write and never changes a stored one, so a pod
// whose pointer is the same shows the same READY and STATUS (neither
// depends on the time). Without it a rolling update of 500 pods formats
// every pod's row and builds every chip anew for each redraw: a few
// hundred milliseconds of the page's thread each time.
type painter struct {
	rows        map[*api.Pod]PodView
	chips, next map[chipKey]*El
	// pause, when set, may hand the page's thread back between two pods
	// formatted or two chips built (a rollout changes every pod).
	pause func()
}

// chipKey is what a chip shows. A chip's inside is never changed once
// built, so the tree on the page shares it with the next tree and a
// redraw skips it; only the chip's place is set anew (a pod that comes or
// goes moves those after it).
type chipKey struct {
	pod   PodView
	chipW int
}

// snapshot is Snapshot, reusing the rows of the pods that did not change.
func (pt *painter) snapshot(c *sim.Cluster) Picture { return snapshot(c, pt) }

// podViews is the package's podViews, formatting only the pods it has
// not seen; a nil painter formats them all.
func (pt *painter) podViews(pods []*api.Pod, now time.Time) []PodView {
	if pt == nil {
		return podViews(pods, now)
	}
	out := make([]PodView, len(pods))
	rows := make(map[*api.Pod]PodView, len(pods))
	var fresh []*api.Pod
	var at []int
	for i, p := range pods {
		if v, ok := pt.rows[p]; ok {
			out[i], rows[p] = v, v
			continue
		}
		fresh = append(fresh, p)
		at = append(at, i)
	}
	for j, p := range fresh {
		v := podViews([]*api.Pod{p}, now)[0]
		out[at[j]], rows[p] = v, v
		pt.yield()
	}
	pt.rows = rows
	return out
}

// svg lays p out, with the chips of the last layout where they are the
// same; the chips it did not use are forgotten.
func (pt *painter) svg(p Picture, l Labels, width int) *El {
	pt.next = make(map[chipKey]*El, len(pt.chips))
	root := p.svg(l, width, pt)
	pt.chips, pt.next = pt.next, nil
	return root
}

// chip is the package's chip, its inside from the last layout where the
// pod showed the same.
func (pt *painter) chip(pod PodView, x, y, chipW int) *El {
	if pt == nil {
		return chip(pod, x, y, chipW)
	}
	k := chipKey{pod, chipW}
	e, ok := pt.chips[k]
	if !ok {
		e = chip(pod, 0, 0, chipW)
		kidKey(e, 0) // worked out once, kept by the copies
		pt.yield()
	}
	pt.next[k] = e
	return placed(e, x, y)
}

func (pt *painter) yield() {
	if pt.pause != nil {
		pt.pause()
	}
}
