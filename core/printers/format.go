package printers

import (
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
)

// formatLabels is labels.FormatLabels: "k=v,k2=v2" sorted, "<none>" when empty.
func formatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	return labels.Set(m).String()
}

// formatSelector is the SELECTOR cell of ReplicaSets, DaemonSets, Jobs and
// CronJobs (metav1.FormatLabelSelector: "<none>" when empty).
func formatSelector(s *api.LabelSelector) string {
	return labels.FormatLabelSelector(s)
}

// selectorString is the Deployment's SELECTOR cell, which upstream prints
// through LabelSelectorAsSelector: empty (not "<none>") when nothing is set.
func selectorString(s *api.LabelSelector) string {
	sel, err := labels.SelectorFromLabelSelector(s)
	if err != nil {
		return "<invalid>"
	}
	return sel.String()
}

// containerCells lays out the wide CONTAINERS and IMAGES cells.
func containerCells(cs []api.Container) (names, images string) {
	n := make([]string, len(cs))
	im := make([]string, len(cs))
	for i, c := range cs {
		n[i], im[i] = c.Name, c.Image
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// accessModes is helper.GetAccessModesAsString: each mode once, in a fixed
// order, abbreviated.
func accessModes(modes []string) string {
	has := map[string]bool{}
	for _, m := range modes {
		has[m] = true
	}
	var out []string
	for _, m := range []struct{ mode, short string }{
		{api.ReadWriteOnce, "RWO"},
		{api.ReadOnlyMany, "ROX"},
		{api.ReadWriteMany, "RWX"},
		{api.ReadWriteOncePod, "RWOP"},
	} {
		if has[m.mode] {
			out = append(out, m.short)
		}
	}
	return strings.Join(out, ",")
}

// quantity prints a quantity as upstream does, where the zero value is "0".
func quantity(q resource.Quantity) string {
	if s := q.String(); s != "" {
		return s
	}
	return "0"
}

// quantityPtr is quantity for optional fields; absent reads "<unknown>".
func quantityPtr(q *resource.Quantity) string {
	if q == nil {
		return "<unknown>"
	}
	return quantity(*q)
}

// boolPtr is printBoolPtr: True, False or <unset>.
func boolPtr(b *bool) string {
	if b == nil {
		return "<unset>"
	}
	return boolString(*b)
}

func boolString(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// orNone returns s, or "<none>" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// int32Or dereferences p, falling back to def (the API default) when unset.
func int32Or(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

func sortStrings(s []string) { sort.Strings(s) }
