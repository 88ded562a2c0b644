package api

// Taint repels pods that do not tolerate it from a node.
type Taint struct {
	Key       string      `json:"key"`
	Value     string      `json:"value,omitempty"`
	Effect    TaintEffect `json:"effect"`
	TimeAdded *Time       `json:"timeAdded,omitempty"`
}

// Taint effects.
const (
	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"
)

// Taints the node lifecycle controller and kubelet manage.
const (
	TaintNodeNotReady           = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable        = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNodeOutOfService       = "node.kubernetes.io/out-of-service"
)

// ToString prints the taint as kubectl does: key=value:Effect, or key:Effect
// when the value is empty.
func (t *Taint) ToString() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// MatchTaint reports whether two taints have the same key and effect (a node
// holds at most one taint per key and effect).
func (t *Taint) MatchTaint(other *Taint) bool {
	return t.Key == other.Key && t.Effect == other.Effect
}

// Toleration lets a pod schedule onto (or stay on) a tainted node.
type Toleration struct {
	Key               string             `json:"key,omitempty"`
	Operator          TolerationOperator `json:"operator,omitempty"`
	Value             string             `json:"value,omitempty"`
	Effect            TaintEffect        `json:"effect,omitempty"`
	TolerationSeconds *int64             `json:"tolerationSeconds,omitempty"`
}

// Toleration operators.
const (
	TolerationOpExists = "Exists"
	TolerationOpEqual  = "Equal"
)

// ToleratesTaint reports whether the toleration matches the taint: an empty
// effect matches every effect, an empty key (with Exists) every key, and the
// operator (Equal by default) compares values.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	default:
		return false
	}
}

// MatchToleration reports whether two tolerations are the same rule
// (tolerationSeconds aside).
func (t *Toleration) MatchToleration(other *Toleration) bool {
	return t.Key == other.Key && t.Effect == other.Effect &&
		t.Operator == other.Operator && t.Value == other.Value
}

// TolerationsTolerateTaint reports whether any toleration tolerates the taint.
func TolerationsTolerateTaint(tolerations []Toleration, taint *Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}
