// Package util holds what the Endpoints and EndpointSlice controllers
// share, as upstream's k8s.io/endpointslice/util does: which pods belong
// in a service's endpoints, which services a pod change touches, how a
// named targetPort resolves, and the last-change-trigger-time tracker.
package util

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// Annotation and label keys the endpoint controllers write.
const (
	// EndpointsLastChangeTriggerTime is the time of the pod or service change
	// that led to the current endpoints.
	EndpointsLastChangeTriggerTime = "endpoints.kubernetes.io/last-change-trigger-time"
	// EndpointsOverCapacity marks an Endpoints object truncated to 1000 addresses.
	EndpointsOverCapacity = "endpoints.kubernetes.io/over-capacity"
	// IsHeadlessService labels the endpoints of a service without a ClusterIP.
	IsHeadlessService = "service.kubernetes.io/headless"
)

// ShouldPodBeInEndpoints reports whether a pod is listed in a service's
// endpoints at all: not when it has finished, has no IP yet, or is being
// deleted (unless includeTerminating).
func ShouldPodBeInEndpoints(pod *api.Pod, includeTerminating bool) bool {
	if api.IsPodTerminal(pod) {
		return false
	}
	if pod.Status.PodIP == "" && len(pod.Status.PodIPs) == 0 {
		return false
	}
	if !includeTerminating && pod.DeletionTimestamp != nil {
		return false
	}
	return true
}

// ShouldSetHostname reports whether a pod's endpoint carries its hostname:
// only when the pod names this service as its subdomain (StatefulSet pods
// and their headless service).
func ShouldSetHostname(pod *api.Pod, svc *api.Service) bool {
	return pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && svc.Namespace == pod.Namespace
}

// FindPort resolves a service port's targetPort on a pod: a number is used
// as is; a name is looked up among the pod's container ports (sidecars
// included) with the same protocol.
func FindPort(pod *api.Pod, svcPort *api.ServicePort) (int, error) {
	target := svcPort.TargetPort
	switch target.Type {
	case intstr.String:
		name := target.StrVal
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == name && p.Protocol == svcPort.Protocol {
					return int(p.ContainerPort), nil
				}
			}
		}
		for _, c := range pod.Spec.InitContainers {
			if c.RestartPolicy == nil || *c.RestartPolicy != api.ContainerRestartPolicyAlways {
				continue
			}
			for _, p := range c.Ports {
				if p.Name == name && p.Protocol == svcPort.Protocol {
					return int(p.ContainerPort), nil
				}
			}
		}
	case intstr.Int:
		return target.IntValue(), nil
	}
	return 0, fmt.Errorf("no suitable port for manifest: %s", pod.UID)
}

// selects reports whether a service's selector picks pods with these
// labels. A nil selector selects nothing (its endpoints are managed by hand).
func selects(svc *api.Service, podLabels map[string]string) bool {
	if svc.Spec.Selector == nil {
		return false
	}
	return labels.SelectorFromSet(labels.Set(svc.Spec.Selector)).Matches(labels.Set(podLabels))
}

// servicesForLabels returns the keys of the services of a namespace whose
// selector matches podLabels.
func servicesForLabels(services *client.Informer, namespace string, podLabels map[string]string) []string {
	var out []string
	for _, o := range services.List(namespace) { // in key order
		if svc := o.(*api.Service); selects(svc, podLabels) {
			out = append(out, client.KeyOf(svc))
		}
	}
	return out
}

// GetPodServiceMemberships lists, sorted, the keys of the services that
// select a pod.
func GetPodServiceMemberships(services *client.Informer, pod *api.Pod) []string {
	return servicesForLabels(services, pod.Namespace, pod.Labels)
}

// GetServicesToUpdateOnPodChange lists, sorted, the services whose
// endpoints a pod update may change: none when nothing relevant changed;
// with changed labels, the services it left or joined (all of both sets
// if the pod itself changed too).
func GetServicesToUpdateOnPodChange(services *client.Informer, old, cur *api.Pod) []string {
	if old.ResourceVersion == cur.ResourceVersion {
		return nil
	}
	podChanged, labelsChanged := PodEndpointsChanged(old, cur)
	if !podChanged && !labelsChanged {
		return nil
	}
	now := servicesForLabels(services, cur.Namespace, cur.Labels)
	if !labelsChanged {
		return now
	}
	before := servicesForLabels(services, cur.Namespace, old.Labels)
	// Both lists are sorted: merge them, keeping a service in both only
	// when the pod itself changed.
	var out []string
	i, j := 0, 0
	for i < len(now) || j < len(before) {
		switch {
		case j == len(before) || i < len(now) && now[i] < before[j]:
			out = append(out, now[i])
			i++
		case i == len(now) || before[j] < now[i]:
			out = append(out, before[j])
			j++
		default:
			if podChanged {
				out = append(out, now[i])
			}
			i++
			j++
		}
	}
	return out
}

// PodEndpointsChanged reports whether a pod changed in a way that may
// change its endpoint (deletion, readiness, IPs), and whether it changed
// in a way that may change which services select it (labels, hostname,
// subdomain).
func PodEndpointsChanged(old, cur *api.Pod) (podChanged, labelsChanged bool) {
	labelsChanged = !api.EqualStringMaps(old.Labels, cur.Labels) ||
		old.Spec.Hostname != cur.Spec.Hostname || old.Spec.Subdomain != cur.Spec.Subdomain
	if (old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil) {
		return true, labelsChanged
	}
	if api.IsPodReady(old) != api.IsPodReady(cur) {
		return true, labelsChanged
	}
	if old.Status.PodIP != cur.Status.PodIP || len(old.Status.PodIPs) != len(cur.Status.PodIPs) {
		return true, labelsChanged
	}
	for i := range old.Status.PodIPs {
		if old.Status.PodIPs[i].IP != cur.Status.PodIPs[i].IP {
			return true, labelsChanged
		}
	}
	return false, labelsChanged
}

// PodIPForService is the pod address of the service's IP family (the
// first family it lists; IPv4 unless told otherwise).
func PodIPForService(svc *api.Service, pod *api.Pod) (string, error) {
	wantV6 := false
	if len(svc.Spec.IPFamilies) > 0 {
		wantV6 = svc.Spec.IPFamilies[0] == api.IPv6Protocol
	} else if svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != api.ClusterIPNone {
		wantV6 = isIPv6(svc.Spec.ClusterIP)
	} else {
		wantV6 = isIPv6(pod.Status.PodIP)
	}
	ips := pod.Status.PodIPs
	if len(ips) == 0 && pod.Status.PodIP != "" {
		ips = []api.PodIP{{IP: pod.Status.PodIP}}
	}
	for _, ip := range ips {
		if isIPv6(ip.IP) == wantV6 {
			return ip.IP, nil
		}
	}
	return "", fmt.Errorf("failed to find a matching endpoint for service %v", svc.Name)
}

func isIPv6(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return true
		}
	}
	return false
}

// IsServiceIPSet reports whether a service has a ClusterIP (is not headless).
func IsServiceIPSet(svc *api.Service) bool {
	return svc.Spec.ClusterIP != api.ClusterIPNone && svc.Spec.ClusterIP != ""
}
