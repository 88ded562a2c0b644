package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	deployutil "kubeplay/core/controller/deployment/util"
)

// podPhaseCounts is getPodStatusForController: the pods the selector
// matches that this controller (by UID) owns, counted by phase.
type podPhaseCounts struct{ running, waiting, succeeded, failed int }

func (d *describer) podsOf(ns string, sel *api.LabelSelector, uid string) podPhaseCounts {
	var n podPhaseCounts
	s, err := labels.SelectorFromLabelSelector(sel)
	if err != nil {
		return n
	}
	for _, p := range client.List[*api.Pod](d.c, ns, func(o api.Object) bool {
		return s.Matches(labels.Set(o.GetObjectMeta().Labels))
	}) {
		if ref := p.GetControllerOf(); ref == nil || ref.UID != uid {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			n.running++
		case api.PodPending:
			n.waiting++
		case api.PodSucceeded:
			n.succeeded++
		case api.PodFailed:
			n.failed++
		}
	}
	return n
}

func (n podPhaseCounts) String() string {
	return fmt.Sprintf("%d Running / %d Waiting / %d Succeeded / %d Failed", n.running, n.waiting, n.succeeded, n.failed)
}

// selectorString is LabelSelectorAsSelector(...).String(): empty for an
// empty selector, and for a nil one.
func selectorString(s *api.LabelSelector) string {
	if s == nil {
		return ""
	}
	sel, err := labels.SelectorFromLabelSelector(s)
	if err != nil {
		return ""
	}
	return sel.String()
}

func int32Value(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// deployment is describeDeployment with its old and new ReplicaSets.
func (d *describer) deployment(dep *api.Deployment) string {
	events := d.objectEvents("Deployment", &dep.ObjectMeta)
	oldRSs, newRS := d.deploymentReplicaSets(dep)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", dep.Name)
	w.write(0, "Namespace:\t%s\n", dep.Namespace)
	w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(dep.CreationTimestamp))
	w.writeLabels("", "Labels", dep.Labels)
	w.writeAnnotations("Annotations", dep.Annotations)
	w.write(0, "Selector:\t%s\n", selectorString(dep.Spec.Selector))
	st := dep.Status
	w.write(0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
		int32Value(dep.Spec.Replicas), st.UpdatedReplicas, st.Replicas, st.AvailableReplicas, st.UnavailableReplicas)
	w.write(0, "StrategyType:\t%s\n", dep.Spec.Strategy.Type)
	w.write(0, "MinReadySeconds:\t%d\n", dep.Spec.MinReadySeconds)
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		w.write(0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrStringPtr(ru.MaxUnavailable), intOrStringPtr(ru.MaxSurge))
	}
	writePodTemplate(w, &dep.Spec.Template)
	if len(st.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.write(1, "----\t------\t------\n")
		for _, c := range st.Conditions {
			w.write(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	if len(oldRSs) > 0 || newRS != nil {
		var news []*api.ReplicaSet
		if newRS != nil {
			news = append(news, newRS)
		}
		w.write(0, "OldReplicaSets:\t%s\n", replicaSetList(oldRSs))
		w.write(0, "NewReplicaSet:\t%s\n", replicaSetList(news))
	}
	d.writeEvents(w, events)
	return w.String()
}

// deploymentReplicaSets lists the ReplicaSets the deployment controls,
// oldest first, and splits off the new one (the oldest with its template).
func (d *describer) deploymentReplicaSets(dep *api.Deployment) (old []*api.ReplicaSet, newRS *api.ReplicaSet) {
	sel, err := labels.SelectorFromLabelSelector(dep.Spec.Selector)
	if err != nil {
		return nil, nil
	}
	owned := client.List[*api.ReplicaSet](d.c, dep.Namespace, func(o api.Object) bool {
		ref := o.GetObjectMeta().GetControllerOf()
		return sel.Matches(labels.Set(o.GetObjectMeta().Labels)) && ref != nil && ref.UID == dep.UID
	})
	sort.Sort(deployutil.ReplicaSetsByCreationTimestamp(owned))
	for _, rs := range owned {
		if deployutil.EqualIgnoreHash(&rs.Spec.Template, &dep.Spec.Template) {
			newRS = rs
			break
		}
	}
	for _, rs := range owned {
		if newRS == nil || rs.UID != newRS.UID {
			old = append(old, rs)
		}
	}
	return old, newRS
}

// replicaSetList is "name (2/3 replicas created), …" or "<none>".
func replicaSetList(rss []*api.ReplicaSet) string {
	var parts []string
	for _, rs := range rss {
		parts = append(parts, fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, int32Value(rs.Spec.Replicas)))
	}
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, ", ")
}

// replicaSet is describeReplicaSet.
func (d *describer) replicaSet(rs *api.ReplicaSet) string {
	pods := d.podsOf(rs.Namespace, rs.Spec.Selector, rs.UID)
	events := d.objectEvents("ReplicaSet", &rs.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", rs.Name)
	w.write(0, "Namespace:\t%s\n", rs.Namespace)
	w.write(0, "Selector:\t%s\n", labels.FormatLabelSelector(rs.Spec.Selector))
	w.writeLabels("", "Labels", rs.Labels)
	w.writeAnnotations("Annotations", rs.Annotations)
	if by := controllerOf(&rs.ObjectMeta); by != "" {
		w.write(0, "Controlled By:\t%s\n", by)
	}
	w.write(0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, int32Value(rs.Spec.Replicas))
	w.write(0, "Pods Status:\t")
	w.write(0, "%s\n", pods)
	writePodTemplate(w, &rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\tReason\n")
		w.write(1, "----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			w.write(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

// statefulSet is describeStatefulSet.
func (d *describer) statefulSet(ss *api.StatefulSet) string {
	pods := d.podsOf(ss.Namespace, ss.Spec.Selector, ss.UID)
	events := d.objectEvents("StatefulSet", &ss.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", ss.Name)
	w.write(0, "Namespace:\t%s\n", ss.Namespace)
	w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(ss.CreationTimestamp))
	w.write(0, "Selector:\t%s\n", selectorString(ss.Spec.Selector))
	w.writeLabels("", "Labels", ss.Labels)
	w.writeAnnotations("Annotations", ss.Annotations)
	w.write(0, "Replicas:\t%d desired | %d total\n", int32Value(ss.Spec.Replicas), ss.Status.Replicas)
	w.write(0, "Update Strategy:\t%s\n", ss.Spec.UpdateStrategy.Type)
	if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		w.write(1, "Partition:\t%d\n", *ru.Partition)
		if ru.MaxUnavailable != nil {
			w.write(1, "MaxUnavailable:\t%s\n", ru.MaxUnavailable.String())
		}
	}
	w.write(0, "Pods Status:\t%s\n", pods)
	writePodTemplate(w, &ss.Spec.Template)
	if len(ss.Spec.VolumeClaimTemplates) == 0 {
		w.write(0, "Volume Claims:\t<none>\n")
	} else {
		w.write(0, "Volume Claims:\n")
		for i := range ss.Spec.VolumeClaimTemplates {
			pvc := &ss.Spec.VolumeClaimTemplates[i]
			w.write(1, "Name:\t%s\n", pvc.Name)
			w.write(1, "StorageClass:\t%s\n", pvcClass(pvc))
			w.writeLabels("  ", "Labels", pvc.Labels)
			w.writeLabels("  ", "Annotations", pvc.Annotations)
			if q, ok := pvc.Spec.Resources.Requests[api.ResourceStorage]; ok {
				w.write(1, "Capacity:\t%s\n", q.String())
			} else {
				w.write(1, "Capacity:\t%s\n", "<default>")
			}
			w.write(1, "Access Modes:\t%s\n", goStringList(pvc.Spec.AccessModes))
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

// daemonSet is describeDaemonSet (which, unlike the others, has no
// Namespace line).
func (d *describer) daemonSet(ds *api.DaemonSet) string {
	pods := d.podsOf(ds.Namespace, ds.Spec.Selector, ds.UID)
	events := d.objectEvents("DaemonSet", &ds.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", ds.Name)
	w.write(0, "Selector:\t%s\n", selectorString(ds.Spec.Selector))
	w.write(0, "Node-Selector:\t%s\n", formatLabelMap(ds.Spec.Template.Spec.NodeSelector))
	w.writeLabels("", "Labels", ds.Labels)
	w.writeAnnotations("Annotations", ds.Annotations)
	st := ds.Status
	w.write(0, "Desired Number of Nodes Scheduled: %d\n", st.DesiredNumberScheduled)
	w.write(0, "Current Number of Nodes Scheduled: %d\n", st.CurrentNumberScheduled)
	w.write(0, "Number of Nodes Scheduled with Up-to-date Pods: %d\n", st.UpdatedNumberScheduled)
	w.write(0, "Number of Nodes Scheduled with Available Pods: %d\n", st.NumberAvailable)
	w.write(0, "Number of Nodes Misscheduled: %d\n", st.NumberMisscheduled)
	w.write(0, "Pods Status:\t%s\n", pods)
	writePodTemplate(w, &ds.Spec.Template)
	d.writeEvents(w, events)
	return w.String()
}
