package framework

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
)

// ErrNoNodesAvailable is the failure of a cycle that found no node at all.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// NoNodeAvailableMsg starts every FitError message.
const NoNodeAvailableMsg = "0/%v nodes are available"

// NodeToStatus holds the status of each rejected node, and one status that
// stands for every node not in the map (the absent nodes).
type NodeToStatus struct {
	statuses map[string]*Status
	absent   *Status
}

// NewDefaultNodeToStatus has no statuses; absent nodes count as
// UnschedulableAndUnresolvable with no reason.
func NewDefaultNodeToStatus() *NodeToStatus {
	return &NodeToStatus{statuses: map[string]*Status{}, absent: NewStatus(UnschedulableAndUnresolvable)}
}

// Get returns a node's status (the absent status when it has none).
func (m *NodeToStatus) Get(node string) *Status {
	if s, ok := m.statuses[node]; ok {
		return s
	}
	return m.absent
}

// Lookup returns a node's own status, if it has one.
func (m *NodeToStatus) Lookup(node string) (*Status, bool) {
	s, ok := m.statuses[node]
	return s, ok
}

// Set records a node's status.
func (m *NodeToStatus) Set(node string, s *Status) { m.statuses[node] = s }

// Len is the number of nodes with their own status.
func (m *NodeToStatus) Len() int { return len(m.statuses) }

// AbsentNodesStatus is the status of nodes without their own.
func (m *NodeToStatus) AbsentNodesStatus() *Status { return m.absent }

// SetAbsentNodesStatus sets the status of nodes without their own.
func (m *NodeToStatus) SetAbsentNodesStatus(s *Status) { m.absent = s }

// Names lists the nodes with their own status, sorted.
func (m *NodeToStatus) Names() []string {
	out := make([]string, 0, len(m.statuses))
	for n := range m.statuses {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Diagnosis records why a cycle found no node.
type Diagnosis struct {
	NodeToStatus *NodeToStatus
	// UnschedulablePlugins rejected the pod somewhere; only events those
	// plugins care about move it back to be retried.
	UnschedulablePlugins map[string]bool
	PendingPlugins       map[string]bool
	PreFilterMsg         string
	PostFilterMsg        string
}

// AddPluginStatus notes the plugin behind a rejection.
func (d *Diagnosis) AddPluginStatus(s *Status) {
	if s.Plugin() == "" {
		return
	}
	if s.IsRejected() {
		if d.UnschedulablePlugins == nil {
			d.UnschedulablePlugins = map[string]bool{}
		}
		d.UnschedulablePlugins[s.Plugin()] = true
	}
	if s.Code() == Pending {
		if d.PendingPlugins == nil {
			d.PendingPlugins = map[string]bool{}
		}
		d.PendingPlugins[s.Plugin()] = true
	}
}

// FitError is the failure of a cycle that rejected every node.
type FitError struct {
	Pod         *api.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
}

// Error words the failure as v1.32 does: "0/N nodes are available: " then
// a count per reason, sorted as strings, then the PostFilter (preemption)
// message.
func (f *FitError) Error() string {
	msg := fmt.Sprintf(NoNodeAvailableMsg+":", f.NumAllNodes)
	if f.Diagnosis.PreFilterMsg != "" {
		// Every node got the PreFilter status; listing them would repeat it.
		msg += fmt.Sprintf(" %v.", f.Diagnosis.PreFilterMsg)
	} else if hist := f.reasonHistogram(); len(hist) > 0 {
		msg += fmt.Sprintf(" %v.", strings.Join(hist, ", "))
	}
	if f.Diagnosis.PostFilterMsg != "" {
		msg += " " + f.Diagnosis.PostFilterMsg
	}
	return msg
}

func (f *FitError) reasonHistogram() []string {
	counts := map[string]int{}
	m := f.Diagnosis.NodeToStatus
	if m == nil {
		return nil
	}
	for _, s := range m.statuses {
		for _, r := range s.Reasons() {
			counts[r]++
		}
	}
	if m.Len() < f.NumAllNodes {
		for _, r := range m.absent.Reasons() {
			counts[r] += f.NumAllNodes - m.Len()
		}
	}
	out := make([]string, 0, len(counts))
	for r, n := range counts {
		out = append(out, fmt.Sprintf("%v %v", n, r))
	}
	sort.Strings(out)
	return out
}
