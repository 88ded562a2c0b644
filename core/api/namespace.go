package api

// Namespace scopes names; deleting one deletes everything inside it.
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NamespaceSpec   `json:"spec,omitempty"`
	Status     NamespaceStatus `json:"status,omitempty"`
}

// NamespaceSpec holds the namespace's own finalizers ("kubernetes").
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// NamespaceStatus is Active or Terminating, with deletion conditions.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
}

// NamespaceCondition reports progress of a namespace's deletion.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime Time                   `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// Namespace names, phases, finalizer and condition types.
const (
	NamespaceDefault   = "default"
	NamespaceAll       = ""
	NamespaceNodeLease = "kube-node-lease"
	NamespaceSystem    = "kube-system"
	NamespacePublic    = "kube-public"

	NamespaceActive      = "Active"
	NamespaceTerminating = "Terminating"

	// FinalizerKubernetes is the namespace controller's spec finalizer.
	FinalizerKubernetes = "kubernetes"

	NamespaceDeletionDiscoveryFailure = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionContentFailure   = "NamespaceDeletionContentFailure"
	NamespaceDeletionGVParsingFailure = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceContentRemaining         = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      = "NamespaceFinalizersRemaining"
)
