package api

// ResourceQuota caps the resources a namespace may use; admission rejects
// creations beyond it.
type ResourceQuota struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ResourceQuotaSpec   `json:"spec,omitempty"`
	Status     ResourceQuotaStatus `json:"status,omitempty"`
}

// ResourceQuotaSpec is the hard limits and which objects they count.
type ResourceQuotaSpec struct {
	Hard          ResourceList         `json:"hard,omitempty"`
	Scopes        []ResourceQuotaScope `json:"scopes,omitempty"`
	ScopeSelector *ScopeSelector       `json:"scopeSelector,omitempty"`
}

// ScopeSelector selects objects by quota scope.
type ScopeSelector struct {
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty"`
}

// ScopedResourceSelectorRequirement is one scope expression.
type ScopedResourceSelectorRequirement struct {
	ScopeName ResourceQuotaScope    `json:"scopeName"`
	Operator  ScopeSelectorOperator `json:"operator"`
	Values    []string              `json:"values,omitempty"`
}

// ResourceQuotaStatus is the enforced limits and current usage.
type ResourceQuotaStatus struct {
	Hard ResourceList `json:"hard,omitempty"`
	Used ResourceList `json:"used,omitempty"`
}

// Quota scopes and scope selector operators.
const (
	ResourceQuotaScopeTerminating               = "Terminating"
	ResourceQuotaScopeNotTerminating            = "NotTerminating"
	ResourceQuotaScopeBestEffort                = "BestEffort"
	ResourceQuotaScopeNotBestEffort             = "NotBestEffort"
	ResourceQuotaScopePriorityClass             = "PriorityClass"
	ResourceQuotaScopeCrossNamespacePodAffinity = "CrossNamespacePodAffinity"

	ScopeSelectorOpIn           = "In"
	ScopeSelectorOpNotIn        = "NotIn"
	ScopeSelectorOpExists       = "Exists"
	ScopeSelectorOpDoesNotExist = "DoesNotExist"
)
