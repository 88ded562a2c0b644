package api

// Lease is coordination.k8s.io/v1 Lease: node heartbeats and leader election.
type Lease struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       LeaseSpec `json:"spec,omitempty"`
}

// LeaseSpec is the holder and the lease's timing.
type LeaseSpec struct {
	HolderIdentity       *string                   `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32                    `json:"leaseDurationSeconds,omitempty"`
	AcquireTime          *MicroTime                `json:"acquireTime,omitempty"`
	RenewTime            *MicroTime                `json:"renewTime,omitempty"`
	LeaseTransitions     *int32                    `json:"leaseTransitions,omitempty"`
	Strategy             *CoordinatedLeaseStrategy `json:"strategy,omitempty"`
	PreferredHolder      *string                   `json:"preferredHolder,omitempty"`
}

// OldestEmulationVersion is the coordinated leader election strategy.
const OldestEmulationVersion = "OldestEmulationVersion"
