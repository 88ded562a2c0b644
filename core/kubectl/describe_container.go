package kubectl

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// envResolver gives the value of a fieldRef variable; nil for templates.
type envResolver func(e api.EnvVar) string

// podEnvResolver resolves fieldRef variables as kubectl can: its scheme
// converts only metadata.name and metadata.namespace, so every other
// field path shows an empty value before its "(v1:path)".
func podEnvResolver(pod *api.Pod) envResolver {
	return func(e api.EnvVar) string {
		switch e.ValueFrom.FieldRef.FieldPath {
		case "metadata.name":
			return pod.Name
		case "metadata.namespace":
			return pod.Namespace
		}
		return ""
	}
}

// writeContainers is describeContainers: each container's image, ports,
// command, state (when a status exists), resources, probes, environment and
// mounts. space is "  " inside a pod template, which also indents names.
func writeContainers(w *describeWriter, label string, cs []api.Container, statuses []api.ContainerStatus, env envResolver, space string) {
	byName := map[string]api.ContainerStatus{}
	for _, s := range statuses {
		byName[s.Name] = s
	}
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.write(0, "%s%s:%s\n", space, label, none)
	for i := range cs {
		c := &cs[i]
		status, ok := byName[c.Name]
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		w.write(1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			w.write(2, "Container ID:\t%s\n", status.ContainerID)
		}
		w.write(2, "Image:\t%s\n", c.Image)
		if ok {
			w.write(2, "Image ID:\t%s\n", status.ImageID)
		}
		ports, hostPorts := describePorts(c.Ports)
		if strings.Contains(ports, ",") {
			w.write(2, "Ports:\t%s\n", ports)
		} else {
			w.write(2, "Port:\t%s\n", stringOrNone(ports))
		}
		if strings.Contains(hostPorts, ",") {
			w.write(2, "Host Ports:\t%s\n", hostPorts)
		} else {
			w.write(2, "Host Port:\t%s\n", stringOrNone(hostPorts))
		}
		if sc := c.SecurityContext; sc != nil && sc.SeccompProfile != nil {
			w.write(2, "SeccompProfile:\t%s\n", sc.SeccompProfile.Type)
			if sc.SeccompProfile.Type == api.SeccompProfileTypeLocalhost {
				w.write(3, "LocalhostProfile:\t%s\n", derefString(sc.SeccompProfile.LocalhostProfile))
			}
		}
		writeLines(w, "Command", c.Command)
		writeLines(w, "Args", c.Args)
		if ok {
			writeContainerState(w, "State", status.State)
			if status.LastTerminationState.Terminated != nil {
				writeContainerState(w, "Last State", status.LastTerminationState)
			}
			w.write(2, "Ready:\t%v\n", printBool(status.Ready))
			w.write(2, "Restart Count:\t%d\n", status.RestartCount)
		}
		writeResources(w, &c.Resources, 2)
		if c.LivenessProbe != nil {
			w.write(2, "Liveness:\t%s\n", describeProbe(c.LivenessProbe))
		}
		if c.ReadinessProbe != nil {
			w.write(2, "Readiness:\t%s\n", describeProbe(c.ReadinessProbe))
		}
		if c.StartupProbe != nil {
			w.write(2, "Startup:\t%s\n", describeProbe(c.StartupProbe))
		}
		if len(c.EnvFrom) > 0 {
			writeEnvFrom(w, c.EnvFrom)
		}
		writeEnv(w, c, env)
		writeMounts(w, c)
	}
}

// describePorts is "80/TCP, 443/TCP" and the matching host ports.
func describePorts(ps []api.ContainerPort) (ports, hostPorts string) {
	var p, h []string
	for _, cp := range ps {
		p = append(p, fmt.Sprintf("%d/%s", cp.ContainerPort, cp.Protocol))
		h = append(h, fmt.Sprintf("%d/%s", cp.HostPort, cp.Protocol))
	}
	return strings.Join(p, ", "), strings.Join(h, ", ")
}

// writeLines prints a command or its args one word a line (a word's own
// line breaks start new lines).
func writeLines(w *describeWriter, title string, words []string) {
	if len(words) == 0 {
		return
	}
	w.write(2, "%s:\n", title)
	for _, word := range words {
		for _, s := range strings.Split(word, "\n") {
			w.write(3, "%s\n", s)
		}
	}
}

// writeContainerState is describeStatus: Running with its start, Waiting
// with its reason, Terminated with reason, message, exit code, signal and
// times; a status with no state reads as Waiting.
func writeContainerState(w *describeWriter, name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		w.write(2, "%s:\tRunning\n", name)
		w.write(3, "Started:\t%v\n", rfc1123z(s.Running.StartedAt))
	case s.Waiting != nil:
		w.write(2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			w.write(3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		t := s.Terminated
		w.write(2, "%s:\tTerminated\n", name)
		if t.Reason != "" {
			w.write(3, "Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			w.write(3, "Message:\t%s\n", t.Message)
		}
		w.write(3, "Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			w.write(3, "Signal:\t%d\n", t.Signal)
		}
		w.write(3, "Started:\t%s\n", rfc1123z(t.StartedAt))
		w.write(3, "Finished:\t%s\n", rfc1123z(t.FinishedAt))
	default:
		w.write(2, "%s:\tWaiting\n", name)
	}
}

// describeProbe is upstream's one-line probe: "exec [cat /tmp/healthy]
// delay=5s timeout=1s period=5s #success=1 #failure=3".
func describeProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	switch {
	case p.Exec != nil:
		return fmt.Sprintf("exec %v %s", p.Exec.Command, attrs)
	case p.HTTPGet != nil:
		u := &url.URL{Scheme: strings.ToLower(p.HTTPGet.Scheme), Path: p.HTTPGet.Path}
		if port := p.HTTPGet.Port.String(); port != "" {
			u.Host = net.JoinHostPort(p.HTTPGet.Host, port)
		} else {
			u.Host = p.HTTPGet.Host
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", p.TCPSocket.Host, p.TCPSocket.Port.String(), attrs)
	case p.GRPC != nil:
		return fmt.Sprintf("grpc <pod>:%d %s %s", p.GRPC.Port, derefString(p.GRPC.Service), attrs)
	}
	return "unknown " + attrs
}

// writeEnvFrom lists the ConfigMaps and Secrets a container imports.
func writeEnvFrom(w *describeWriter, from []api.EnvFromSource) {
	w.write(2, "Environment Variables from:\n")
	for _, e := range from {
		var kind, name string
		optional := false
		switch {
		case e.ConfigMapRef != nil:
			kind, name = "ConfigMap", e.ConfigMapRef.Name
			optional = e.ConfigMapRef.Optional != nil && *e.ConfigMapRef.Optional
		case e.SecretRef != nil:
			kind, name = "Secret", e.SecretRef.Name
			optional = e.SecretRef.Optional != nil && *e.SecretRef.Optional
		}
		if e.Prefix == "" {
			w.write(3, "%s\t%s\tOptional: %t\n", name, kind, optional)
		} else {
			w.write(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, kind, e.Prefix, optional)
		}
	}
}

// writeEnv prints each variable: plain values (multi-line ones continue
// under the value column), field and resource references with what they
// resolve to, and secret or config map keys by name.
func writeEnv(w *describeWriter, c *api.Container, env envResolver) {
	if len(c.Env) == 0 {
		w.write(2, "Environment:\t<none>\n")
	} else {
		w.write(2, "Environment:\n")
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			for i, s := range strings.Split(e.Value, "\n") {
				if i == 0 {
					w.write(3, "%s:\t%s\n", e.Name, s)
				} else {
					w.write(3, "\t%s\n", s)
				}
			}
			continue
		}
		vf := e.ValueFrom
		switch {
		case vf.FieldRef != nil:
			var v string
			if env != nil {
				v = env(e)
			}
			w.write(3, "%s:\t%s (%s:%s)\n", e.Name, v, vf.FieldRef.APIVersion, vf.FieldRef.FieldPath)
		case vf.ResourceFieldRef != nil:
			v := containerResourceValue(vf.ResourceFieldRef, c)
			r := vf.ResourceFieldRef.Resource
			if v == "0" && (r == "limits.cpu" || r == "limits.memory") {
				v = "node allocatable"
			}
			w.write(3, "%s:\t%s (%s)\n", e.Name, v, r)
		case vf.SecretKeyRef != nil:
			opt := vf.SecretKeyRef.Optional != nil && *vf.SecretKeyRef.Optional
			w.write(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, vf.SecretKeyRef.Key, vf.SecretKeyRef.Name, opt)
		case vf.ConfigMapKeyRef != nil:
			opt := vf.ConfigMapKeyRef.Optional != nil && *vf.ConfigMapKeyRef.Optional
			w.write(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, vf.ConfigMapKeyRef.Key, vf.ConfigMapKeyRef.Name, opt)
		}
	}
}

// containerResourceValue is what a resourceFieldRef reads from the
// container's own spec, divided by the divisor and rounded up.
func containerResourceValue(ref *api.ResourceFieldSelector, c *api.Container) string {
	div := ref.Divisor
	if div.IsZero() {
		div = resource.MustParse("1")
	}
	var q resource.Quantity
	milli := false
	switch ref.Resource {
	case "limits.cpu":
		q, milli = c.Resources.Limits[api.ResourceCPU], true
	case "requests.cpu":
		q, milli = c.Resources.Requests[api.ResourceCPU], true
	case "limits.memory":
		q = c.Resources.Limits[api.ResourceMemory]
	case "requests.memory":
		q = c.Resources.Requests[api.ResourceMemory]
	case "limits.ephemeral-storage":
		q = c.Resources.Limits[api.ResourceEphemeralStorage]
	case "requests.ephemeral-storage":
		q = c.Resources.Requests[api.ResourceEphemeralStorage]
	default:
		return ""
	}
	num, den := float64(q.Value()), float64(div.Value())
	if milli {
		num, den = float64(q.MilliValue()), float64(div.MilliValue())
	}
	if den == 0 {
		return ""
	}
	return strconv.FormatInt(int64(math.Ceil(num/den)), 10)
}

// byMountPath is upstream's SortableVolumeMounts.
type byMountPath []api.VolumeMount

func (l byMountPath) Len() int           { return len(l) }
func (l byMountPath) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byMountPath) Less(i, j int) bool { return l[i].MountPath < l[j].MountPath }

// writeMounts lists mounts by path ("/data from cache (rw)") and devices.
func writeMounts(w *describeWriter, c *api.Container) {
	none := ""
	if len(c.VolumeMounts) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Mounts:%s\n", none)
	mounts := append([]api.VolumeMount(nil), c.VolumeMounts...)
	sort.Sort(byMountPath(mounts))
	for _, m := range mounts {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.write(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
	if len(c.VolumeDevices) > 0 {
		w.write(2, "Devices:%s\n", none)
		devs := append([]api.VolumeDevice(nil), c.VolumeDevices...)
		sort.Slice(devs, func(i, j int) bool { return devs[i].DevicePath < devs[j].DevicePath })
		for _, dv := range devs {
			w.write(3, "%s from %s\n", dv.DevicePath, dv.Name)
		}
	}
}
