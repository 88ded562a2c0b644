package playground

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/printers"
	"kubeplay/core/sim"
)

// Picture is what the cluster picture shows: nodes with their pods, and
// the pods no node has taken yet. Cells are kubectl's (READY, STATUS), so
// the picture and `kubectl get` always agree.
type Picture struct {
	Nodes       []NodeView
	Unscheduled []PodView
}

// NodeView is one node.
type NodeView struct {
	Name   string
	Status string // kubectl's STATUS: Ready, NotReady, Ready,SchedulingDisabled
	Roles  string
	// Zone is the node's topology.kubernetes.io/zone label.
	Zone   string
	Taints []string
	Class  string // ok, fail, unknown; "cordoned" is added for SchedulingDisabled
	Pods   []PodView
}

// PodView is one pod.
type PodView struct {
	Namespace string
	Name      string
	Ready     string // 1/1
	Status    string // Running, ContainerCreating, CrashLoopBackOff, Terminating …
	Class     string // ok, warn, pending, fail, done, term
	Node      string
}

// Snapshot reads the picture from the cluster (the caller holds the engine).
func Snapshot(c *sim.Cluster) Picture { return snapshot(c, nil) }

// snapshot reads the picture, the pods' rows from pt where it has them.
func snapshot(c *sim.Cluster, pt *painter) Picture {
	cl := c.Client("playground")
	now := c.Now()
	nodes := client.List[*api.Node](cl, "", nil)
	pods := client.List[*api.Pod](cl, "", nil)
	var p Picture
	idx := map[string]int{}
	nodeObjs := make([]api.Object, len(nodes))
	for i, n := range nodes {
		nodeObjs[i] = n
	}
	nt := printers.TableFor("Node", nodeObjs, now)
	for i, row := range nt.Rows {
		n := nodes[i]
		nv := NodeView{Name: n.Name, Status: cell(nt, row, "Status"), Roles: cell(nt, row, "Roles"), Zone: n.Labels[api.LabelTopologyZone]}
		for _, t := range n.Spec.Taints {
			s := t.Key
			if t.Value != "" {
				s += "=" + t.Value
			}
			nv.Taints = append(nv.Taints, s+":"+string(t.Effect))
		}
		nv.Class = nodeClass(nv.Status)
		idx[n.Name] = len(p.Nodes)
		p.Nodes = append(p.Nodes, nv)
	}
	for _, pv := range pt.podViews(pods, now) {
		if j, ok := idx[pv.Node]; ok {
			p.Nodes[j].Pods = append(p.Nodes[j].Pods, pv)
		} else {
			p.Unscheduled = append(p.Unscheduled, pv)
		}
	}
	sortNodes(p.Nodes)
	for i := range p.Nodes {
		sortPods(p.Nodes[i].Pods)
	}
	sortPods(p.Unscheduled)
	return p
}

// podViews reads each pod's READY and STATUS as kubectl prints them.
func podViews(pods []*api.Pod, now time.Time) []PodView {
	objs := make([]api.Object, len(pods))
	for i, o := range pods {
		objs[i] = o
	}
	pt := printers.TableFor("Pod", objs, now)
	out := make([]PodView, len(pt.Rows))
	for i, row := range pt.Rows {
		pod := pods[i]
		pv := PodView{Namespace: pod.Namespace, Name: pod.Name, Ready: cell(pt, row, "Ready"), Status: cell(pt, row, "Status"), Node: pod.Spec.NodeName}
		pv.Class = podClass(pv.Status, pv.Ready)
		out[i] = pv
	}
	return out
}

// sortNodes puts the nodes of a zone together (nodes without a zone
// last), each zone's by name.
func sortNodes(ns []NodeView) {
	sort.Slice(ns, func(i, j int) bool {
		zi, zj := ns[i].Zone, ns[j].Zone
		if zi != zj {
			return zj == "" || zi != "" && zi < zj
		}
		return ns[i].Name < ns[j].Name
	})
}

func sortPods(ps []PodView) {
	sort.SliceStable(ps, func(i, j int) bool {
		// The learner's pods first, system pods after.
		si, sj := systemNS(ps[i].Namespace), systemNS(ps[j].Namespace)
		if si != sj {
			return !si
		}
		if ps[i].Namespace != ps[j].Namespace {
			return ps[i].Namespace < ps[j].Namespace
		}
		return ps[i].Name < ps[j].Name
	})
}

func systemNS(ns string) bool { return strings.HasPrefix(ns, "kube-") }

func cell(t *printers.Table, r printers.Row, col string) string {
	for i, c := range t.Columns {
		if c.Name == col && i < len(r.Cells) {
			return r.Cells[i]
		}
	}
	return ""
}

func nodeClass(status string) string {
	cls := "unknown"
	switch {
	case strings.HasPrefix(status, "Ready"):
		cls = "ok"
	case strings.HasPrefix(status, "NotReady"):
		cls = "fail"
	}
	if strings.Contains(status, "SchedulingDisabled") {
		cls += " cordoned"
	}
	return cls
}

// podClass sorts kubectl's STATUS into the picture's colour classes.
func podClass(status, ready string) string {
	switch {
	case status == "Terminating":
		return "term"
	case status == "Running":
		if a, b, ok := strings.Cut(ready, "/"); ok && a == b {
			return "ok"
		}
		return "warn"
	case status == "Completed" || status == "Succeeded":
		return "done"
	case status == "Pending" || status == "ContainerCreating" || status == "PodInitializing" ||
		strings.HasPrefix(status, "Init:") && !strings.Contains(status, "Err") && !strings.Contains(status, "BackOff"):
		return "pending"
	}
	for _, bad := range []string{"Err", "BackOff", "Error", "Failed", "OOMKilled", "Evicted", "Unknown", "NodeLost", "Invalid", "ContainerCannotRun", "DeadlineExceeded", "Signal:", "ExitCode:"} {
		if strings.Contains(status, bad) {
			return "fail"
		}
	}
	return "pending"
}

// Icons pair each colour with a shape, for readers who cannot tell the
// colours apart.
var podIcons = map[string]string{
	"ok": "✓", "warn": "◐", "pending": "…", "fail": "✕", "done": "■", "term": "↓",
}

// El is an SVG element to build: the page turns it into DOM nodes with
// createElementNS, setAttribute and textContent, never through HTML
// parsing, so names from the cluster stay text.
type El struct {
	Tag   string
	Attrs [][2]string
	Text  string
	Kids  []*El
	// key is what the page matches the element by among its siblings,
	// kept once worked out ("-": by position).
	key string
}

func el(tag string, text string, attrs ...string) *El {
	e := &El{Tag: tag, Text: text}
	for i := 0; i+1 < len(attrs); i += 2 {
		e.Attrs = append(e.Attrs, [2]string{attrs[i], attrs[i+1]})
	}
	return e
}

func (e *El) add(kids ...*El) *El { e.Kids = append(e.Kids, kids...); return e }

// Attr returns an attribute's value.
func (e *El) Attr(name string) string {
	for _, a := range e.Attrs {
		if a[0] == name {
			return a[1]
		}
	}
	return ""
}

// Geometry of the picture, in SVG user units.
const (
	picPad   = 12
	chipGap  = 8
	chipMinW = 230
	chipH    = 40
	headH    = 46
	// A crowded picture draws each pod as a dot: a square in its colour,
	// its name and status in its tooltip and details.
	dotSize = 18
	dotGap  = 4
)

// layout is the picture's geometry for a width in CSS pixels: as many
// chips a row as fit, so the SVG is drawn at its natural size.
type layout struct{ w, perRow, chipW, chipH, gap int }

func layoutFor(width int) layout {
	if width < 260 {
		width = 260
	}
	if width > 1600 {
		width = 1600
	}
	inner := width - 4*picPad
	per := (inner + chipGap) / (chipMinW + chipGap)
	if per < 1 {
		per = 1
	}
	return layout{w: width, perRow: per, chipW: (inner - (per-1)*chipGap) / per, chipH: chipH, gap: chipGap}
}

// dots is the layout with pods drawn as dots.
func (lay layout) dots() layout {
	inner := lay.w - 4*picPad
	lay.perRow = max(1, (inner+dotGap)/(dotSize+dotGap))
	lay.chipW, lay.chipH, lay.gap = dotSize, dotSize, dotGap
	return lay
}

// Labels are the picture's words in the page's language.
type Labels struct {
	Unscheduled, NoNodes, Pods string
	Zone, NoZone, Nodes        string
}

// SVG lays the picture out: each node a box with its status and taints as
// text, its pods as chips coloured by class with an icon, READY and
// STATUS written out.
func (p Picture) SVG(l Labels) *El { return p.SVGWidth(l, 560) }

// crowdedPods is how many pods make the picture crowded: its pods are
// drawn as dots, without text, and no longer fade in and out. A chip is
// seven elements, three of them text; with 500 pods a rollout's frames
// took 100–300 ms of the browser's style, layout and paint, and each
// fading chip is a layer of its own for the compositor.
const crowdedPods = 100

func (p Picture) crowded() bool {
	n := len(p.Unscheduled)
	for _, node := range p.Nodes {
		n += len(node.Pods)
	}
	return n > crowdedPods
}

// SVGWidth lays the picture out for a width in CSS pixels.
func (p Picture) SVGWidth(l Labels, width int) *El { return p.svg(l, width, nil) }

// svg lays the picture out, taking unchanged chips from pt.
func (p Picture) svg(l Labels, width int, pt *painter) *El {
	lay := layoutFor(width)
	class := "cluster"
	if p.crowded() {
		class += " crowded"
		lay = lay.dots()
	}
	root := el("svg", "", "xmlns", "http://www.w3.org/2000/svg", "class", class, "role", "img")
	y := picPad
	if len(p.Unscheduled) > 0 {
		box, h := lay.boxFor(pt, "unscheduled", l.Unscheduled, fmt.Sprintf("%d %s", len(p.Unscheduled), l.Pods), nil, p.Unscheduled, y, "")
		root.add(box)
		y += h + picPad
	}
	if len(p.Nodes) == 0 {
		root.add(el("text", l.NoNodes, "x", fmt.Sprint(picPad), "y", fmt.Sprint(y+20), "class", "empty"))
		y += 40
	}
	zoned := false
	for _, n := range p.Nodes {
		zoned = zoned || n.Zone != ""
	}
	for i, n := range p.Nodes {
		if zoned && (i == 0 || p.Nodes[i-1].Zone != n.Zone) {
			root.add(zoneHeading(l, p.Nodes[i:], y))
			y += zoneH
		}
		sub := n.Status
		if n.Roles != "" && n.Roles != "<none>" {
			sub += " · " + n.Roles
		}
		box, h := lay.boxFor(pt, "node "+n.Class, n.Name, sub, n.Taints, n.Pods, y, n.Name)
		if len(n.Taints) > 0 {
			box.Attrs = append(box.Attrs, [2]string{"data-taints", strings.Join(n.Taints, ",")})
		}
		root.add(box)
		y += h + picPad
	}
	root.Attrs = append(root.Attrs, [2]string{"viewBox", fmt.Sprintf("0 0 %d %d", lay.w, y)})
	root.Attrs = append(root.Attrs, [2]string{"width", fmt.Sprint(lay.w)}, [2]string{"height", fmt.Sprint(y)})
	root.Attrs = append(root.Attrs, [2]string{"aria-label", p.Summary()})
	return root
}

// zoneH is the height of a zone's heading above its nodes.
const zoneH = 26

// zoneHeading names the zone of nodes[0] and counts its nodes and how
// many are Ready, as the node lifecycle controller judges a zone.
func zoneHeading(l Labels, nodes []NodeView, y int) *El {
	zone := nodes[0].Zone
	total, ready := 0, 0
	for _, n := range nodes {
		if n.Zone != zone {
			break
		}
		total++
		if strings.HasPrefix(n.Status, "Ready") {
			ready++
		}
	}
	name := l.Zone + " " + zone
	if zone == "" {
		name = l.NoZone
	}
	cls := "zone"
	switch {
	case ready == 0:
		cls += " down"
	case ready < total:
		cls += " degraded"
	}
	return el("text", fmt.Sprintf("%s · %d/%d %s Ready", name, ready, total, l.Nodes),
		"class", cls, "data-zone", zone, "x", fmt.Sprint(picPad), "y", fmt.Sprint(y+16))
}

// Summary is the picture in one sentence, for screen readers.
func (p Picture) Summary() string {
	var parts []string
	for _, n := range p.Nodes {
		where := ""
		if n.Zone != "" {
			where = " in zone " + n.Zone
		}
		parts = append(parts, fmt.Sprintf("node %s%s %s with %d pods", n.Name, where, n.Status, len(n.Pods)))
	}
	if len(p.Unscheduled) > 0 {
		parts = append(parts, fmt.Sprintf("%d pods not scheduled", len(p.Unscheduled)))
	}
	if len(parts) == 0 {
		return "no nodes"
	}
	return "cluster: " + strings.Join(parts, "; ")
}

func (lay layout) boxFor(pt *painter, class, title, sub string, taints []string, pods []PodView, y int, node string) (*El, int) {
	w := lay.w - 2*picPad
	perRow, chipW := lay.perRow, lay.chipW
	top := headH
	if len(taints) > 0 {
		top += 16
	}
	rows := (len(pods) + perRow - 1) / perRow
	h := top + rows*(lay.chipH+lay.gap) + picPad
	if len(pods) == 0 {
		h = top + 4
	}
	g := el("g", "", "class", "box "+class, "transform", fmt.Sprintf("translate(%d,%d)", picPad, y))
	if node != "" {
		g.Attrs = append(g.Attrs, [2]string{"data-node", node})
	}
	frame := el("g", "", "class", "head")
	if node != "" {
		frame.Attrs = append(frame.Attrs, [2]string{"tabindex", "0"}, [2]string{"role", "button"},
			[2]string{"aria-label", fmt.Sprintf("node %s, %s", title, sub)})
	}
	g.add(el("rect", "", "class", "frame", "width", fmt.Sprint(w), "height", fmt.Sprint(h), "rx", "8"))
	frame.add(el("rect", "", "class", "hit", "width", fmt.Sprint(w), "height", fmt.Sprint(top-4), "rx", "8"))
	frame.add(el("text", title, "class", "title", "x", fmt.Sprint(picPad), "y", "20"))
	frame.add(el("text", sub, "class", "sub", "x", fmt.Sprint(picPad), "y", "37"))
	if len(taints) > 0 {
		frame.add(el("text", "taints: "+strings.Join(taints, ", "), "class", "taints", "x", fmt.Sprint(picPad), "y", "54"))
	}
	g.add(frame)
	for i, pod := range pods {
		col, row := i%perRow, i/perRow
		x := picPad + col*(chipW+lay.gap)
		cy := top + row*(lay.chipH+lay.gap)
		g.add(pt.chip(pod, x, cy, chipW))
	}
	return g, h
}

// placed is a copy of chip at (x, y), sharing its inside.
func placed(chip *El, x, y int) *El {
	c := *chip
	c.Attrs = slices.Clone(chip.Attrs)
	for i, a := range c.Attrs {
		if a[0] == "transform" {
			c.Attrs[i][1] = translate(x, y)
		}
	}
	return &c
}

func translate(x, y int) string {
	return "translate(" + strconv.Itoa(x) + "," + strconv.Itoa(y) + ")"
}

// chip draws a pod chipW wide: a dot when chipW is dotSize (a crowded
// picture), else a chip with its icon, name, status and READY.
func chip(p PodView, x, y, chipW int) *El {
	name := p.Name
	if p.Namespace != "default" {
		name = p.Namespace + "/" + p.Name
	}
	cls := "pod " + p.Class
	if systemNS(p.Namespace) {
		cls += " system"
	}
	g := el("g", "", "class", cls, "transform", translate(x, y),
		"data-pod", p.Namespace+"/"+p.Name, "data-status", p.Status, "data-ready", p.Ready,
		"tabindex", "0", "role", "button", "aria-label", fmt.Sprintf("pod %s, %s, ready %s", name, p.Status, p.Ready))
	g.add(el("title", fmt.Sprintf("%s: %s, ready %s", name, p.Status, p.Ready)))
	if chipW == dotSize {
		g.add(el("rect", "", "class", "chip", "width", fmt.Sprint(dotSize), "height", fmt.Sprint(dotSize), "rx", "4"))
		return g
	}
	g.add(el("rect", "", "class", "chip", "width", fmt.Sprint(chipW), "height", fmt.Sprint(chipH), "rx", "6"))
	g.add(el("rect", "", "class", "stripe", "width", "6", "height", fmt.Sprint(chipH), "rx", "3"))
	g.add(el("text", podIcons[p.Class], "class", "icon", "x", "13", "y", "17"))
	chars := (chipW - 40) / 8 // characters of bold 12.5px text that fit
	g.add(el("text", ellipsis(p.Name, chars), "class", "name", "x", "30", "y", "17"))
	status := ellipsis(p.Status, chars-5) + "  " + p.Ready
	if p.Namespace != "default" {
		status = ellipsis(p.Namespace, 14) + " · " + status
	}
	g.add(el("text", status, "class", "status", "x", "30", "y", "33"))
	return g
}

// ellipsis shortens s to n characters in the middle, where generated
// names keep their telling ends (web-5d66647b66-djkch → web-5d6…-djkch).
func ellipsis(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	tail := n / 2
	return string(r[:n-1-tail]) + "…" + string(r[len(r)-tail:])
}

// Equal reports whether two pictures show the same thing.
func (p Picture) Equal(q Picture) bool {
	return slices.Equal(p.Unscheduled, q.Unscheduled) && slices.EqualFunc(p.Nodes, q.Nodes, func(a, b NodeView) bool {
		return a.Name == b.Name && a.Status == b.Status && a.Roles == b.Roles && a.Zone == b.Zone && a.Class == b.Class &&
			slices.Equal(a.Taints, b.Taints) && slices.Equal(a.Pods, b.Pods)
	})
}

// MarkChanges tags the chips of svg (drawn from p) whose pod is new since
// prev with the class "enter", so the page can fade them in (unless the
// picture is crowded); a pod that is new on a node is how a rescheduled
// workload's replacement shows.
// A tagged chip is a copy: chips are shared between redraws.
func (p Picture) MarkChanges(prev Picture, svg *El) {
	if p.crowded() {
		return // a crowded picture does not fade its pods
	}
	was := map[string]bool{}
	for _, n := range prev.Nodes {
		for _, pod := range n.Pods {
			was[pod.Namespace+"/"+pod.Name+"@"+n.Name] = true
		}
	}
	for _, pod := range prev.Unscheduled {
		was[pod.Namespace+"/"+pod.Name+"@"] = true
	}
	var mark func(e *El, node string)
	mark = func(e *El, node string) {
		if n := e.Attr("data-node"); n != "" {
			node = n
		}
		for i, k := range e.Kids {
			key := k.Attr("data-pod")
			switch {
			case key == "":
				mark(k, node)
			case !was[key+"@"+node]:
				e.Kids[i] = entering(k)
			}
		}
	}
	mark(svg, "")
}

// entering is a copy of chip with the class "enter" added.
func entering(chip *El) *El {
	c := *chip
	c.Attrs = slices.Clone(chip.Attrs)
	for i, a := range c.Attrs {
		if a[0] == "class" {
			c.Attrs[i][1] += " enter"
		}
	}
	return &c
}

// kidKey names a child for matching with the drawn one: by what it shows
// when it says so (data-pod, data-node, data-zone), else by tag and
// position. A chip is matched on every redraw, so its key is kept.
func kidKey(e *El, i int) string {
	if e.key == "" {
		e.key = "-"
		for _, name := range []string{"data-pod", "data-node", "data-zone"} {
			if v := e.Attr(name); v != "" {
				e.key = e.Tag + " " + name + "=" + v
				break
			}
		}
	}
	if e.key != "-" {
		return e.key
	}
	return e.Tag + "#" + strconv.Itoa(i)
}
