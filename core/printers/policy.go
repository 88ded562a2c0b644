package printers

import (
	"time"

	"kubeplay/core/api"
)

// Columns of PodDisruptionBudgets and Leases.

var pdbHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Min Available"},
		{Name: "Max Unavailable"},
		{Name: "Allowed Disruptions"},
		{Name: "Age"},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		p, ok := obj.(*api.PodDisruptionBudget)
		if !ok {
			return nil, false
		}
		minAvail, maxUnavail := "N/A", "N/A"
		if p.Spec.MinAvailable != nil {
			minAvail = p.Spec.MinAvailable.String()
		}
		if p.Spec.MaxUnavailable != nil {
			maxUnavail = p.Spec.MaxUnavailable.String()
		}
		return []string{p.Name, minAvail, maxUnavail, itoa32(p.Status.DisruptionsAllowed), Age(p.CreationTimestamp, now)}, true
	},
}

var leaseHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Holder"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		l, ok := obj.(*api.Lease)
		if !ok {
			return nil, false
		}
		holder := ""
		if l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
		return []string{l.Name, holder, Age(l.CreationTimestamp, now)}, true
	},
}
