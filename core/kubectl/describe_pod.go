package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// mirrorPodAnnotation marks a static pod's mirror; its events carry the
// static pod's UID, which the annotation holds.
const mirrorPodAnnotation = "kubernetes.io/config.mirror"

// pod is describePod. Events are matched without kind (kubelets and the
// scheduler both report on the pod) and by the mirror UID for static pods.
func (d *describer) pod(pod *api.Pod) string {
	uid := pod.UID
	if m, ok := pod.Annotations[mirrorPodAnnotation]; ok {
		uid = m
	}
	events := d.eventsFor(eventQuery{name: pod.Name, namespace: pod.Namespace, uid: uid})

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", pod.Name)
	w.write(0, "Namespace:\t%s\n", pod.Namespace)
	if pod.Spec.Priority != nil {
		w.write(0, "Priority:\t%d\n", *pod.Spec.Priority)
	}
	if pod.Spec.PriorityClassName != "" {
		w.write(0, "Priority Class Name:\t%s\n", pod.Spec.PriorityClassName)
	}
	if rc := pod.Spec.RuntimeClassName; rc != nil && *rc != "" {
		w.write(0, "Runtime Class Name:\t%s\n", *rc)
	}
	if pod.Spec.ServiceAccountName != "" {
		w.write(0, "Service Account:\t%s\n", pod.Spec.ServiceAccountName)
	}
	if pod.Spec.NodeName == "" {
		w.write(0, "Node:\t<none>\n")
	} else {
		w.write(0, "Node:\t%s\n", pod.Spec.NodeName+"/"+pod.Status.HostIP)
	}
	if pod.Status.StartTime != nil {
		w.write(0, "Start Time:\t%s\n", rfc1123z(*pod.Status.StartTime))
	}
	w.writeLabels("", "Labels", pod.Labels)
	w.writeAnnotations("Annotations", pod.Annotations)
	if pod.DeletionTimestamp != nil && pod.Status.Phase != api.PodFailed && pod.Status.Phase != api.PodSucceeded {
		w.write(0, "Status:\tTerminating (lasts %s)\n", d.since(pod.DeletionTimestamp.Time))
		var grace int64
		if pod.DeletionGracePeriodSeconds != nil {
			grace = *pod.DeletionGracePeriodSeconds
		}
		w.write(0, "Termination Grace Period:\t%ds\n", grace)
	} else {
		w.write(0, "Status:\t%s\n", pod.Status.Phase)
	}
	if pod.Status.Reason != "" {
		w.write(0, "Reason:\t%s\n", pod.Status.Reason)
	}
	if pod.Status.Message != "" {
		w.write(0, "Message:\t%s\n", pod.Status.Message)
	}
	if sc := pod.Spec.SecurityContext; sc != nil && sc.SeccompProfile != nil {
		w.write(0, "SeccompProfile:\t%s\n", sc.SeccompProfile.Type)
		if sc.SeccompProfile.Type == api.SeccompProfileTypeLocalhost {
			w.write(0, "LocalhostProfile:\t%s\n", derefString(sc.SeccompProfile.LocalhostProfile))
		}
	}
	w.write(0, "IP:\t%s\n", pod.Status.PodIP)
	if len(pod.Status.PodIPs) == 0 {
		w.write(0, "IPs:\t<none>\n")
	} else {
		w.write(0, "IPs:\n")
		for _, ip := range pod.Status.PodIPs {
			w.write(1, "IP:\t%s\n", ip.IP)
		}
	}
	if by := controllerOf(&pod.ObjectMeta); by != "" {
		w.write(0, "Controlled By:\t%s\n", by)
	}
	if pod.Status.NominatedNodeName != "" {
		w.write(0, "NominatedNodeName:\t%s\n", pod.Status.NominatedNodeName)
	}
	if pod.Spec.Resources != nil {
		w.write(0, "Resources:\n")
		writeResources(w, pod.Spec.Resources, 1)
	}
	env := podEnvResolver(pod)
	if len(pod.Spec.InitContainers) > 0 {
		writeContainers(w, "Init Containers", pod.Spec.InitContainers, pod.Status.InitContainerStatuses, env, "")
	}
	writeContainers(w, "Containers", pod.Spec.Containers, pod.Status.ContainerStatuses, env, "")
	if len(pod.Spec.EphemeralContainers) > 0 {
		var ec []api.Container
		for _, c := range pod.Spec.EphemeralContainers {
			ec = append(ec, api.Container(c.EphemeralContainerCommon))
		}
		writeContainers(w, "Ephemeral Containers", ec, pod.Status.EphemeralContainerStatuses, env, "")
	}
	if len(pod.Spec.ReadinessGates) > 0 {
		w.write(0, "Readiness Gates:\n  Type\tStatus\n")
		for _, g := range pod.Spec.ReadinessGates {
			status := "<none>"
			if _, c := api.GetPodCondition(&pod.Status, g.ConditionType); c != nil {
				status = c.Status
			}
			w.write(1, "%v \t%v \n", g.ConditionType, status)
		}
	}
	if len(pod.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\n")
		for _, c := range pod.Status.Conditions {
			w.write(1, "%v \t%v \n", c.Type, c.Status)
		}
	}
	writeVolumes(w, pod.Spec.Volumes, "")
	w.write(0, "QoS Class:\t%s\n", podQOS(pod))
	w.writeLabels("", "Node-Selectors", pod.Spec.NodeSelector)
	w.writeTolerations("Tolerations", pod.Spec.Tolerations)
	writeTopologySpread(w, pod.Spec.TopologySpreadConstraints, "")
	d.writeEvents(w, events)
	return w.String()
}

// writePodTemplate is DescribePodTemplate, shared by the workload kinds.
func writePodTemplate(w *describeWriter, t *api.PodTemplateSpec) {
	w.write(0, "Pod Template:\n")
	w.writeLabels("", "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		w.writeAnnotations("  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		writeContainers(w, "Init Containers", t.Spec.InitContainers, nil, nil, "  ")
	}
	writeContainers(w, "Containers", t.Spec.Containers, nil, nil, "  ")
	writeVolumes(w, t.Spec.Volumes, "  ")
	writeTopologySpread(w, t.Spec.TopologySpreadConstraints, "  ")
	if t.Spec.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	w.writeLabels("", "  Node-Selectors", t.Spec.NodeSelector)
	w.writeTolerations("  Tolerations", t.Spec.Tolerations)
}

// writeTopologySpread lists spread constraints sorted by topology key.
func writeTopologySpread(w *describeWriter, tscs []api.TopologySpreadConstraint, space string) {
	if len(tscs) == 0 {
		return
	}
	cs := append([]api.TopologySpreadConstraint(nil), tscs...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].TopologyKey < cs[j].TopologyKey })
	w.write(0, "%sTopology Spread Constraints:\t", space)
	for i, c := range cs {
		if i != 0 {
			w.write(0, "%s\t", space)
		}
		s := fmt.Sprintf("%s:%v when max skew %d is exceeded", c.TopologyKey, c.WhenUnsatisfiable, c.MaxSkew)
		if c.LabelSelector != nil {
			s += " for selector " + labels.FormatLabelSelector(c.LabelSelector)
		}
		w.write(0, "%s\n", s)
	}
}

// podQOS is the pod's QoS class: the one the kubelet recorded, or computed
// from requests and limits as upstream does.
func podQOS(pod *api.Pod) string {
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	requests, limits := api.ResourceList{}, api.ResourceList{}
	guaranteed := true
	collect := func(r api.ResourceRequirements) {
		addQOSResources(requests, r.Requests)
		addQOSResources(limits, r.Limits)
		lim := qosResourceNames(r.Limits)
		if !lim[api.ResourceCPU] || !lim[api.ResourceMemory] {
			guaranteed = false
		}
	}
	if pod.Spec.Resources != nil {
		collect(*pod.Spec.Resources)
	} else {
		for _, c := range append(append([]api.Container(nil), pod.Spec.Containers...), pod.Spec.InitContainers...) {
			collect(c.Resources)
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return api.PodQOSBestEffort
	}
	if guaranteed {
		for name, req := range requests {
			if lim, ok := limits[name]; !ok || lim.Cmp(req) != 0 {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return api.PodQOSGuaranteed
	}
	return api.PodQOSBurstable
}

// addQOSResources sums the positive cpu and memory quantities of add into sum.
func addQOSResources(sum, add api.ResourceList) {
	for name, q := range add {
		if (name != api.ResourceCPU && name != api.ResourceMemory) || q.Sign() <= 0 {
			continue
		}
		if cur, ok := sum[name]; ok {
			q.Add(cur)
		}
		sum[name] = q
	}
}

func qosResourceNames(l api.ResourceList) map[string]bool {
	out := map[string]bool{}
	for name, q := range l {
		if (name == api.ResourceCPU || name == api.ResourceMemory) && q.Sign() > 0 {
			out[name] = true
		}
	}
	return out
}

// writeResources prints Limits then Requests, each sorted by name.
func writeResources(w *describeWriter, r *api.ResourceRequirements, level int) {
	if r == nil {
		return
	}
	if len(r.Limits) > 0 {
		w.write(level, "Limits:\n")
	}
	for _, name := range slices.Sorted(maps.Keys(r.Limits)) {
		q := r.Limits[name]
		w.write(level+1, "%s:\t%s\n", name, q.String())
	}
	if len(r.Requests) > 0 {
		w.write(level, "Requests:\n")
	}
	for _, name := range slices.Sorted(maps.Keys(r.Requests)) {
		q := r.Requests[name]
		w.write(level+1, "%s:\t%s\n", name, q.String())
	}
}

func derefString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
