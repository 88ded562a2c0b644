package playground

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/client"
	"kubeplay/core/printers"
	"kubeplay/core/scheduler"
)

// Details is what the page shows for a pod or node clicked in the
// picture: its YAML (as `kubectl get -o yaml` prints it), its events and,
// for a pod, the scheduler's latest verdict on each node.
type Details struct {
	Kind      string         `json:"kind"`
	Namespace string         `json:"namespace,omitempty"`
	Name      string         `json:"name"`
	Found     bool           `json:"found"`
	YAML      string         `json:"yaml"`
	Events    []EventRow     `json:"events"`
	Decision  *DecisionView  `json:"decision,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"`
}

// EventRow is one event, in kubectl get events' words.
type EventRow struct {
	LastSeen string `json:"lastSeen"`
	Type     string `json:"type"`
	Reason   string `json:"reason"`
	From     string `json:"from"`
	Message  string `json:"message"`
}

// DecisionView is the scheduler's latest attempt for a pod.
type DecisionView struct {
	Node    string         `json:"node"`
	Reason  string         `json:"reason"`
	Message string         `json:"message"`
	Age     string         `json:"age"`
	Nodes   []NodeVerdict  `json:"nodes"`
	Counts  map[string]int `json:"counts"`
	// Dropped: the per-node verdicts of this attempt are no longer kept
	// (only the latest attempts keep them); Evaluated and Feasible remain.
	Dropped   bool `json:"dropped,omitempty"`
	Evaluated int  `json:"evaluated"`
	Feasible  int  `json:"feasible"`
	AllNodes  int  `json:"allNodes"`
}

// NodeVerdict is one node's part in it.
type NodeVerdict struct {
	Name    string   `json:"name"`
	Verdict string   `json:"verdict"`
	Plugin  string   `json:"plugin,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
	Score   int64    `json:"score"`
	Scores  []string `json:"scores,omitempty"`
}

// schedulerOf finds the cluster's scheduler if core exposes it.
type schedulerOf interface {
	Scheduler() *scheduler.Scheduler
}

// Describe gathers the details of a pod or node. It reads through the
// engine (waiting for it, or between two steps of a waiting command).
func (h *Host) Describe(kind, namespace, name string) Details {
	d := Details{Kind: kind, Namespace: namespace, Name: name}
	h.Do(func() { d = h.describe(kind, namespace, name) })
	return d
}

func (h *Host) describe(kind, namespace, name string) Details {
	d := Details{Kind: kind, Namespace: namespace, Name: name, Events: []EventRow{}}
	cl := h.C.Client("playground")
	now := h.C.Now()
	var obj api.Object
	switch kind {
	case "Pod":
		if p, err := client.Get[*api.Pod](cl, namespace, name); err == nil {
			obj = p
		}
	case "Node":
		d.Namespace = ""
		if n, err := client.Get[*api.Node](cl, "", name); err == nil {
			obj = n
		}
	default:
		return d
	}
	if obj == nil {
		return d
	}
	d.Found = true
	if y, err := codec.EncodeYAML(obj); err == nil {
		d.YAML = string(y)
	}
	uid := obj.GetObjectMeta().UID
	evNS := d.Namespace
	if kind == "Node" {
		evNS = "" // node events live in the default namespace; list all
	}
	events := client.List[*api.Event](cl, evNS, func(o api.Object) bool {
		e, ok := o.(*api.Event)
		return ok && e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name &&
			(e.InvolvedObject.UID == "" || e.InvolvedObject.UID == uid || kind == "Node")
	})
	sort.SliceStable(events, func(i, j int) bool { return eventTime(events[i]).Before(eventTime(events[j])) })
	for _, e := range events {
		from := e.Source.Component
		if from == "" {
			from = e.ReportingController
		}
		if e.Source.Host != "" {
			from += ", " + e.Source.Host
		}
		d.Events = append(d.Events, EventRow{
			LastSeen: printers.ShortHumanDuration(now.Sub(eventTime(e))),
			Type:     e.Type, Reason: e.Reason, From: from, Message: e.Message,
		})
	}
	if kind == "Pod" {
		if s, ok := any(h.C).(schedulerOf); ok && s.Scheduler() != nil {
			if dec, ok := s.Scheduler().Decision(namespace, name); ok {
				d.Decision = decisionView(dec, now)
			}
		}
	}
	return d
}

func eventTime(e *api.Event) time.Time {
	if !e.LastTimestamp.IsZero() {
		return e.LastTimestamp.Time
	}
	if !e.EventTime.IsZero() {
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

func decisionView(dec *scheduler.Decision, now time.Time) *DecisionView {
	v := &DecisionView{Node: dec.SelectedNode, Reason: dec.Reason, Message: dec.Message,
		Age: printers.ShortHumanDuration(now.Sub(dec.Time)), Counts: map[string]int{},
		Dropped: !dec.HasNodeDecisions(), Evaluated: dec.EvaluatedNodes, Feasible: dec.FeasibleNodes, AllNodes: dec.NumAllNodes}
	for _, n := range dec.NodeDecisions() {
		nv := NodeVerdict{Name: n.Name, Verdict: n.Verdict, Plugin: n.Plugin, Reasons: n.Reasons, Score: n.TotalScore}
		for _, s := range n.Scores {
			nv.Scores = append(nv.Scores, fmt.Sprintf("%s %d×%d", s.Name, s.Normalized, s.Weight))
		}
		v.Counts[n.Verdict]++
		v.Nodes = append(v.Nodes, nv)
	}
	return v
}

// DescribeText is the details as plain text (for tests and screen readers).
func (d Details) DescribeText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", d.Kind, d.Name)
	if d.Decision != nil {
		fmt.Fprintf(&b, "scheduler: %s %s %s\n", d.Decision.Reason, d.Decision.Node, d.Decision.Message)
		for _, n := range d.Decision.Nodes {
			fmt.Fprintf(&b, "  %s %s %s %s %d\n", n.Name, n.Verdict, n.Plugin, strings.Join(n.Reasons, "; "), n.Score)
		}
	}
	for _, e := range d.Events {
		fmt.Fprintf(&b, "%s %s %s %s\n", e.LastSeen, e.Type, e.Reason, e.Message)
	}
	return b.String()
}
