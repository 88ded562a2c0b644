package kubectl

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
)

// Describers for the kinds that bound or account for others: quotas,
// disruption budgets, storage classes and endpoint slices, in upstream's
// layouts.

func (d *describer) resourceQuota(q *api.ResourceQuota) string {
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", q.Name)
	w.write(0, "Namespace:\t%s\n", q.Namespace)
	if len(q.Spec.Scopes) > 0 {
		writeQuotaScopes(w, 0, " * ", q.Spec.Scopes)
	}
	w.write(0, "Resource\tUsed\tHard\n")
	w.write(0, "--------\t----\t----\n")
	for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
		hard, used := q.Status.Hard[name], q.Status.Used[name]
		// Used reads in the unit family of its hard limit.
		if used.Format != hard.Format {
			used = *resource.NewQuantity(used.Value(), hard.Format)
		}
		w.write(0, "%v\t%v\t%v\n", name, used.String(), hard.String())
	}
	return w.String()
}

// writeQuotaScopes lists a quota's scopes, sorted, each explained.
func writeQuotaScopes(w *describeWriter, level int, bullet string, scopes []api.ResourceQuotaScope) {
	sorted := make([]string, len(scopes))
	for i, s := range scopes {
		sorted[i] = string(s)
	}
	slices.Sort(sorted)
	w.write(level, "Scopes:\t%s\n", strings.Join(sorted, ", "))
	for _, s := range sorted {
		if help := quotaScopeHelp(s); help != "" {
			w.write(level, "%s%s\n", bullet, help)
		}
	}
}

func (d *describer) podDisruptionBudget(pdb *api.PodDisruptionBudget) string {
	events := d.objectEvents("PodDisruptionBudget", &pdb.ObjectMeta)
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", pdb.Name)
	w.write(0, "Namespace:\t%s\n", pdb.Namespace)
	if pdb.Spec.MinAvailable != nil {
		w.write(0, "Min available:\t%s\n", pdb.Spec.MinAvailable.String())
	} else if pdb.Spec.MaxUnavailable != nil {
		w.write(0, "Max unavailable:\t%s\n", pdb.Spec.MaxUnavailable.String())
	}
	if pdb.Spec.Selector != nil {
		w.write(0, "Selector:\t%s\n", labels.FormatLabelSelector(pdb.Spec.Selector))
	} else {
		w.write(0, "Selector:\t<unset>\n")
	}
	w.write(0, "Status:\n")
	w.write(2, "Allowed disruptions:\t%d\n", pdb.Status.DisruptionsAllowed)
	w.write(2, "Current:\t%d\n", pdb.Status.CurrentHealthy)
	w.write(2, "Desired:\t%d\n", pdb.Status.DesiredHealthy)
	w.write(2, "Total:\t%d\n", pdb.Status.ExpectedPods)
	d.writeEvents(w, events)
	return w.String()
}

func (d *describer) storageClass(sc *api.StorageClass) string {
	events := d.objectEvents("StorageClass", &sc.ObjectMeta)
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", sc.Name)
	isDefault := "No"
	if sc.Annotations[api.IsDefaultStorageClassAnnotation] == "true" || sc.Annotations[api.BetaIsDefaultStorageClassAnnotation] == "true" {
		isDefault = "Yes"
	}
	w.write(0, "IsDefaultClass:\t%s\n", isDefault)
	w.write(0, "Annotations:\t%s\n", formatLabelMap(sc.Annotations))
	w.write(0, "Provisioner:\t%s\n", sc.Provisioner)
	w.write(0, "Parameters:\t%s\n", formatLabelMap(sc.Parameters))
	w.write(0, "AllowVolumeExpansion:\t%s\n", printBoolPtr(sc.AllowVolumeExpansion))
	if len(sc.MountOptions) == 0 {
		w.write(0, "MountOptions:\t<none>\n")
	} else {
		w.write(0, "MountOptions:\n")
		for _, o := range sc.MountOptions {
			w.write(1, "%s\n", o)
		}
	}
	if sc.ReclaimPolicy != nil {
		w.write(0, "ReclaimPolicy:\t%s\n", *sc.ReclaimPolicy)
	}
	if sc.VolumeBindingMode != nil {
		w.write(0, "VolumeBindingMode:\t%s\n", *sc.VolumeBindingMode)
	}
	if sc.AllowedTopologies != nil {
		writeAllowedTopologies(w, sc.AllowedTopologies)
	}
	d.writeEvents(w, events)
	return w.String()
}

// writeAllowedTopologies prints each term's "KEY in [V1, V2]" lines.
func writeAllowedTopologies(w *describeWriter, terms []api.TopologySelectorTerm) {
	if len(terms) == 0 {
		w.write(0, "AllowedTopologies:\t<none>\n")
		return
	}
	w.write(0, "AllowedTopologies:\t\n")
	for i, term := range terms {
		w.write(1, "Term %d:\t", i)
		if len(term.MatchLabelExpressions) == 0 {
			w.write(0, "<none>\n")
			continue
		}
		for j, req := range term.MatchLabelExpressions {
			if j > 0 {
				w.write(1, "\t")
			}
			expr := req.Key + " in"
			if len(req.Values) > 0 {
				expr += " [" + strings.Join(req.Values, ", ") + "]"
			}
			w.write(0, "%s\n", expr)
		}
	}
}

func (d *describer) endpointSlice(eps *api.EndpointSlice) string {
	events := d.objectEvents("EndpointSlice", &eps.ObjectMeta)
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", eps.Name)
	w.write(0, "Namespace:\t%s\n", eps.Namespace)
	w.writeLabels("", "Labels", eps.Labels)
	w.writeAnnotations("Annotations", eps.Annotations)
	w.write(0, "AddressType:\t%s\n", eps.AddressType)
	if len(eps.Ports) == 0 {
		w.write(0, "Ports: <unset>\n")
	} else {
		w.write(0, "Ports:\n")
		w.write(1, "Name\tPort\tProtocol\n")
		w.write(1, "----\t----\t--------\n")
		for _, p := range eps.Ports {
			name, port, proto := "<unset>", "<unset>", ""
			if p.Name != nil && *p.Name != "" {
				name = *p.Name
			}
			if p.Port != nil {
				port = strconv.Itoa(int(*p.Port))
			}
			if p.Protocol != nil {
				proto = string(*p.Protocol)
			}
			w.write(1, "%s\t%s\t%s\n", name, port, proto)
		}
	}
	if len(eps.Endpoints) == 0 {
		w.write(0, "Endpoints: <none>\n")
	} else {
		w.write(0, "Endpoints:\n")
		for _, ep := range eps.Endpoints {
			addrs := strings.Join(ep.Addresses, ", ")
			if addrs == "" {
				addrs = "<none>"
			}
			w.write(1, "- Addresses:\t%s\n", addrs)
			w.write(2, "Conditions:\n")
			ready := "<unset>"
			if ep.Conditions.Ready != nil {
				ready = strconv.FormatBool(*ep.Conditions.Ready)
			}
			w.write(3, "Ready:\t%s\n", ready)
			w.write(2, "Hostname:\t%s\n", unsetIfNil(ep.Hostname))
			if ep.TargetRef != nil {
				w.write(2, "TargetRef:\t%s/%s\n", ep.TargetRef.Kind, ep.TargetRef.Name)
			}
			w.write(2, "NodeName:\t%s\n", unsetIfNil(ep.NodeName))
			w.write(2, "Zone:\t%s\n", unsetIfNil(ep.Zone))
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

func unsetIfNil(s *string) string {
	if s == nil {
		return "<unset>"
	}
	return *s
}
