package kubectl

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// service is describeService; its Endpoints lines come from the
// service's EndpointSlices, as upstream reads them.
func (d *describer) service(svc *api.Service) string {
	slices := client.List[*api.EndpointSlice](d.c, svc.Namespace, func(o api.Object) bool {
		return o.GetObjectMeta().Labels[api.LabelServiceName] == svc.Name
	})
	events := d.objectEvents("Service", &svc.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", svc.Name)
	w.write(0, "Namespace:\t%s\n", svc.Namespace)
	w.writeLabels("", "Labels", svc.Labels)
	w.writeAnnotations("Annotations", svc.Annotations)
	spec := &svc.Spec
	w.write(0, "Selector:\t%s\n", formatLabelMap(spec.Selector))
	w.write(0, "Type:\t%s\n", spec.Type)
	if spec.IPFamilyPolicy != nil {
		w.write(0, "IP Family Policy:\t%s\n", *spec.IPFamilyPolicy)
	}
	if len(spec.IPFamilies) > 0 {
		w.write(0, "IP Families:\t%s\n", strings.Join(spec.IPFamilies, ","))
	} else {
		w.write(0, "IP Families:\t%s\n", "<none>")
	}
	w.write(0, "IP:\t%s\n", spec.ClusterIP)
	if len(spec.ClusterIPs) > 0 {
		w.write(0, "IPs:\t%s\n", strings.Join(spec.ClusterIPs, ","))
	} else {
		w.write(0, "IPs:\t%s\n", "<none>")
	}
	if len(spec.ExternalIPs) > 0 {
		w.write(0, "External IPs:\t%v\n", strings.Join(spec.ExternalIPs, ","))
	}
	if spec.LoadBalancerIP != "" {
		w.write(0, "Desired LoadBalancer IP:\t%s\n", spec.LoadBalancerIP)
	}
	if spec.ExternalName != "" {
		w.write(0, "External Name:\t%s\n", spec.ExternalName)
	}
	if ing := svc.Status.LoadBalancer.Ingress; len(ing) > 0 {
		var parts []string
		for _, in := range ing {
			switch {
			case in.IP != "" && in.IPMode != nil:
				parts = append(parts, fmt.Sprintf("%s (%s)", in.IP, *in.IPMode))
			case in.IP != "":
				parts = append(parts, in.IP)
			default:
				parts = append(parts, in.Hostname)
			}
		}
		w.write(0, "LoadBalancer Ingress:\t%s\n", strings.Join(parts, ", "))
	}
	for _, p := range spec.Ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.write(0, "Port:\t%s\t%d/%s\n", name, p.Port, p.Protocol)
		w.write(0, "TargetPort:\t%s/%s\n", p.TargetPort.String(), p.Protocol)
		if p.NodePort != 0 {
			w.write(0, "NodePort:\t%s\t%d/%s\n", name, p.NodePort, p.Protocol)
		}
		w.write(0, "Endpoints:\t%s\n", endpointsForPort(slices, p.Name))
	}
	w.write(0, "Session Affinity:\t%s\n", spec.SessionAffinity)
	if spec.ExternalTrafficPolicy != "" {
		w.write(0, "External Traffic Policy:\t%s\n", spec.ExternalTrafficPolicy)
	}
	if spec.InternalTrafficPolicy != nil {
		w.write(0, "Internal Traffic Policy:\t%s\n", *spec.InternalTrafficPolicy)
	}
	if spec.HealthCheckNodePort != 0 {
		w.write(0, "HealthCheck NodePort:\t%d\n", spec.HealthCheckNodePort)
	}
	if len(spec.LoadBalancerSourceRanges) > 0 {
		w.write(0, "LoadBalancer Source Ranges:\t%v\n", strings.Join(spec.LoadBalancerSourceRanges, ","))
	}
	d.writeEvents(w, events)
	return w.String()
}

// endpointsForPort is formatEndpointSlices for one service port: the ready
// endpoints as "ip:port", at most three and then "+ N more...".
func endpointsForPort(slices []*api.EndpointSlice, portName string) string {
	if len(slices) == 0 {
		return "<none>"
	}
	const max = 3
	var list []string
	more, count := false, 0
	add := func(e api.Endpoint, port *int32) {
		if len(list) == max {
			more = true
		}
		if e.Conditions.Ready != nil && !*e.Conditions.Ready {
			return
		}
		if !more && len(e.Addresses) > 0 {
			if port == nil {
				list = append(list, e.Addresses[0])
			} else {
				list = append(list, net.JoinHostPort(e.Addresses[0], strconv.Itoa(int(*port))))
			}
		}
		count++
	}
	for _, s := range slices {
		if len(s.Ports) == 0 {
			// A headless service without ports lists bare addresses.
			for _, e := range s.Endpoints {
				add(e, nil)
			}
			continue
		}
		for _, p := range s.Ports {
			if derefString(p.Name) != portName || p.Port == nil {
				continue
			}
			for _, e := range s.Endpoints {
				add(e, p.Port)
			}
		}
	}
	out := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", out, count-max)
	}
	return out
}

// endpoints is describeEndpoints: each subset's ready and not-ready
// addresses and its ports.
func (d *describer) endpoints(ep *api.Endpoints) string {
	events := d.objectEvents("Endpoints", &ep.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", ep.Name)
	w.write(0, "Namespace:\t%s\n", ep.Namespace)
	w.writeLabels("", "Labels", ep.Labels)
	w.writeAnnotations("Annotations", ep.Annotations)
	w.write(0, "Subsets:\n")
	for _, s := range ep.Subsets {
		w.write(1, "Addresses:\t%s\n", addressList(s.Addresses))
		w.write(1, "NotReadyAddresses:\t%s\n", addressList(s.NotReadyAddresses))
		if len(s.Ports) > 0 {
			w.write(1, "Ports:\n")
			w.write(2, "Name\tPort\tProtocol\n")
			w.write(2, "----\t----\t--------\n")
			for _, p := range s.Ports {
				name := p.Name
				if name == "" {
					name = "<unset>"
				}
				w.write(2, "%s\t%d\t%s\n", name, p.Port, p.Protocol)
			}
		}
		w.write(0, "\n")
	}
	d.writeEvents(w, events)
	return w.String()
}

func addressList(as []api.EndpointAddress) string {
	var ips []string
	for _, a := range as {
		ips = append(ips, a.IP)
	}
	if len(ips) == 0 {
		return "<none>"
	}
	return strings.Join(ips, ",")
}

// namespace is describeNamespace with its quotas; kubeplay has no
// LimitRange kind, so that section always reads as a cluster without any.
func (d *describer) namespace(ns *api.Namespace) string {
	quotas := client.List[*api.ResourceQuota](d.c, ns.Name, nil)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", ns.Name)
	w.writeLabels("", "Labels", ns.Labels)
	w.writeAnnotations("Annotations", ns.Annotations)
	w.write(0, "Status:\t%s\n", ns.Status.Phase)
	if len(ns.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n")
		w.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n")
		w.write(1, "----\t------\t------------------\t------\t-------\n")
		for _, c := range ns.Status.Conditions {
			w.write(1, "%v\t%v\t%s\t%v\t%v\n", c.Type, c.Status, rfc1123z(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	w.write(0, "\n")
	if len(quotas) == 0 {
		w.write(0, "No resource quota.\n")
	} else {
		sort.Slice(quotas, func(i, j int) bool { return quotas[i].Name < quotas[j].Name })
		w.write(0, "Resource Quotas\n")
		for _, q := range quotas {
			w.write(1, "Name:\t%s\n", q.Name)
			if len(q.Spec.Scopes) > 0 {
				writeQuotaScopes(w, 1, "* ", q.Spec.Scopes)
			}
			w.write(1, "Resource\tUsed\tHard\n")
			w.write(1, "--------\t---\t---\n")
			for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
				hard, used := q.Status.Hard[name], q.Status.Used[name]
				w.write(1, "%s\t%s\t%s\n", name, used.String(), hard.String())
			}
		}
	}
	// kubectl lists LimitRanges only where the server serves them (it
	// skips the section when the list fails); kubeplay's does not.
	if _, ok := d.c.Registry().Get("", "limitranges"); ok {
		w.write(0, "\n")
		w.write(0, "No LimitRange resource.\n")
	}
	return w.String()
}

// quotaScopeHelp explains a quota scope as upstream does.
func quotaScopeHelp(scope string) string {
	switch scope {
	case api.ResourceQuotaScopeTerminating:
		return "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system."
	case api.ResourceQuotaScopeNotTerminating:
		return "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate."
	case api.ResourceQuotaScopeBestEffort:
		return "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service."
	case api.ResourceQuotaScopeNotBestEffort:
		return "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service."
	}
	return ""
}

// configMap prints every key's value under a "----" rule, then the sizes
// of binary keys.
func (d *describer) configMap(cm *api.ConfigMap) string {
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", cm.Name)
	w.write(0, "Namespace:\t%s\n", cm.Namespace)
	w.writeLabels("", "Labels", cm.Labels)
	w.writeAnnotations("Annotations", cm.Annotations)
	w.write(0, "\nData\n====\n")
	for _, k := range slices.Sorted(maps.Keys(cm.Data)) {
		w.write(0, "%s:\n----\n", k)
		w.write(0, "%s\n", cm.Data[k])
		w.write(0, "\n")
	}
	w.write(0, "\nBinaryData\n====\n")
	for _, k := range slices.Sorted(maps.Keys(cm.BinaryData)) {
		w.write(0, "%s: %s bytes\n", k, strconv.Itoa(len(cm.BinaryData[k])))
	}
	w.write(0, "\n")
	d.writeEvents(w, d.objectEvents("ConfigMap", &cm.ObjectMeta))
	return w.String()
}

// secret shows each key's size, never its value (a service account token
// excepted), and no events, as upstream.
func (d *describer) secret(s *api.Secret) string {
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", s.Name)
	w.write(0, "Namespace:\t%s\n", s.Namespace)
	w.writeLabels("", "Labels", s.Labels)
	w.writeAnnotations("Annotations", s.Annotations)
	w.write(0, "\nType:\t%s\n", s.Type)
	w.write(0, "\nData\n====\n")
	for _, k := range slices.Sorted(maps.Keys(s.Data)) {
		v := s.Data[k]
		if k == api.ServiceAccountTokenKey && s.Type == api.SecretTypeServiceAccountToken {
			w.write(0, "%s:\t%s\n", k, string(v))
		} else {
			w.write(0, "%s:\t%d bytes\n", k, len(v))
		}
	}
	return w.String()
}

// serviceAccount lists the account's pull secrets, mountable secrets and
// token secrets, marking references to secrets that do not exist.
func (d *describer) serviceAccount(sa *api.ServiceAccount) string {
	secrets := client.List[*api.Secret](d.c, sa.Namespace, nil)
	existing := map[string]bool{}
	var tokens []string
	for _, s := range secrets {
		if s.Type == api.SecretTypeServiceAccountToken &&
			s.Annotations[api.ServiceAccountNameKey] == sa.Name && s.Annotations[api.ServiceAccountUIDKey] == sa.UID {
			tokens = append(tokens, s.Name)
		}
		existing[s.Name] = true
	}
	events := d.objectEvents("ServiceAccount", &sa.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", sa.Name)
	w.write(0, "Namespace:\t%s\n", sa.Namespace)
	w.writeLabels("", "Labels", sa.Labels)
	w.writeAnnotations("Annotations", sa.Annotations)
	var pull, mount []string
	for _, s := range sa.ImagePullSecrets {
		pull = append(pull, s.Name)
	}
	for _, s := range sa.Secrets {
		mount = append(mount, s.Name)
	}
	// Upstream prints the three headers in sorted order.
	for _, h := range []struct {
		header string
		names  []string
	}{
		{"Image pull secrets:", pull},
		{"Mountable secrets: ", mount},
		{"Tokens:            ", tokens},
	} {
		if len(h.names) == 0 {
			w.write(0, "%s\t<none>\n", h.header)
			continue
		}
		prefix := h.header
		for _, n := range h.names {
			if existing[n] {
				w.write(0, "%s\t%s\n", prefix, n)
			} else {
				w.write(0, "%s\t%s (not found)\n", prefix, n)
			}
			prefix = "                   "
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

// persistentVolumeClaim is describePersistentVolumeClaim with the pods
// that mount the claim.
func (d *describer) persistentVolumeClaim(pvc *api.PersistentVolumeClaim) string {
	pods := client.List[*api.Pod](d.c, pvc.Namespace, nil)
	var users []string
	seen := map[string]bool{}
	for _, p := range pods {
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == pvc.Name {
				users = append(users, p.Name)
				seen[p.UID] = true
			}
		}
	}
	// A generic ephemeral volume's claim is owned by its pod.
	for _, ref := range pvc.OwnerReferences {
		if ref.Kind != "Pod" || seen[ref.UID] {
			continue
		}
		for _, p := range pods {
			if p.UID == ref.UID {
				users = append(users, p.Name)
				seen[p.UID] = true
			}
		}
	}
	sort.Strings(users)
	events := d.objectEvents("PersistentVolumeClaim", &pvc.ObjectMeta)

	w := newDescribeWriter()
	writePVCFields(w, pvc, d.since)
	w.write(0, "Used By:\t")
	if len(users) == 0 {
		w.line("<none>")
	}
	for i, u := range users {
		if i != 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s\n", u)
	}
	if len(pvc.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n")
		w.write(1, "Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n")
		w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range pvc.Status.Conditions {
			w.write(1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, rfc1123z(c.LastProbeTime), rfc1123z(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

// persistentVolume is describePersistentVolume.
func (d *describer) persistentVolume(pv *api.PersistentVolume) string {
	events := d.objectEvents("PersistentVolume", &pv.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", pv.Name)
	w.writeLabels("", "Labels", pv.Labels)
	w.writeAnnotations("Annotations", pv.Annotations)
	w.write(0, "Finalizers:\t%v\n", goStringList(pv.Finalizers))
	class := pv.Spec.StorageClassName
	if c, ok := pv.Annotations[api.BetaStorageClassAnnotation]; ok {
		class = c
	}
	w.write(0, "StorageClass:\t%s\n", class)
	if pv.DeletionTimestamp != nil {
		w.write(0, "Status:\tTerminating (lasts %s)\n", d.since(pv.DeletionTimestamp.Time))
	} else {
		w.write(0, "Status:\t%v\n", pv.Status.Phase)
	}
	if ref := pv.Spec.ClaimRef; ref != nil {
		w.write(0, "Claim:\t%s\n", ref.Namespace+"/"+ref.Name)
	} else {
		w.write(0, "Claim:\t%s\n", "")
	}
	w.write(0, "Reclaim Policy:\t%v\n", pv.Spec.PersistentVolumeReclaimPolicy)
	w.write(0, "Access Modes:\t%s\n", accessModesString(pv.Spec.AccessModes))
	if pv.Spec.VolumeMode != nil {
		w.write(0, "VolumeMode:\t%v\n", *pv.Spec.VolumeMode)
	}
	storage := pv.Spec.Capacity[api.ResourceStorage]
	w.write(0, "Capacity:\t%s\n", storage.String())
	w.write(0, "Node Affinity:\t")
	if na := pv.Spec.NodeAffinity; na == nil || na.Required == nil {
		w.line("<none>")
	} else {
		w.line("")
		w.write(1, "Required Terms:\t")
		if len(na.Required.NodeSelectorTerms) == 0 {
			w.line("<none>")
		} else {
			w.line("")
			for i, term := range na.Required.NodeSelectorTerms {
				w.write(2, "%s:\t", fmt.Sprintf("Term %v", i))
				if len(term.MatchExpressions) == 0 {
					w.line("<none>")
				}
				for j, req := range term.MatchExpressions {
					if j != 0 {
						w.write(2, "\t")
					}
					expr := req.Key + " " + strings.ToLower(req.Operator)
					if len(req.Values) > 0 {
						expr += " [" + strings.Join(req.Values, ", ") + "]"
					}
					w.write(0, "%s\n", expr)
				}
			}
		}
	}
	w.write(0, "Message:\t%s\n", pv.Status.Message)
	w.write(0, "Source:\n")
	switch src := &pv.Spec.PersistentVolumeSource; {
	case src.HostPath != nil:
		writeHostPathSource(w, src.HostPath)
	case src.NFS != nil:
		writeNFSSource(w, src.NFS)
	case src.Local != nil:
		w.write(2, "Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n"+
			"    Path:\t%v\n", src.Local.Path)
	case src.CSI != nil:
		c := src.CSI
		w.write(2, "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n"+
			"    Driver:\t%v\n"+
			"    FSType:\t%v\n"+
			"    VolumeHandle:\t%v\n"+
			"    ReadOnly:\t%v\n", c.Driver, c.FSType, c.VolumeHandle, c.ReadOnly)
		writeCSIAttributes(w, c.VolumeAttributes)
	default:
		w.write(1, "<unknown>\n")
	}
	d.writeEvents(w, events)
	return w.String()
}
