package kubectl

import (
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"

	"kubeplay/core/api"
)

// tmplWriter is describe's PrefixWriter: each level indents two
// spaces, and fields are separated by tabs that nothing aligns (rollout
// history --revision prints them as they are).
type tmplWriter struct{ b strings.Builder }

func (w *tmplWriter) write(level int, format string, a ...any) {
	w.b.WriteString(strings.Repeat("  ", level))
	fmt.Fprintf(&w.b, format, a...)
}

// rolloutTemplateText is describe.DescribePodTemplate: how rollout history
// --revision and rollout undo --dry-run show a revision's pod template.
func rolloutTemplateText(t *api.PodTemplateSpec) string {
	w := &tmplWriter{}
	w.write(0, "Pod Template:\n")
	if t == nil {
		w.write(1, "<unset>")
		return w.b.String()
	}
	tmplMap(w, "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		tmplAnnotations(w, "  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		tmplContainers(w, "Init Containers", t.Spec.InitContainers)
	}
	tmplContainers(w, "Containers", t.Spec.Containers)
	tmplVolumes(w, t.Spec.Volumes)
	if t.Spec.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	tmplMap(w, "  Node-Selectors", t.Spec.NodeSelector)
	tmplTolerations(w, "  Tolerations", t.Spec.Tolerations)
	return w.b.String()
}

func tmplMap(w *tmplWriter, title string, m map[string]string) {
	w.write(0, "%s:\t", title)
	if len(m) == 0 {
		w.write(0, "<none>\n")
		return
	}
	keys := tmplSortedKeys(m)
	for i, k := range keys {
		if i > 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s=%s\n", k, m[k])
	}
}

// tmplAnnotationWidth is where describe folds an annotation onto its own
// lines.
const tmplAnnotationWidth = 140

func tmplAnnotations(w *tmplWriter, title string, m map[string]string) {
	w.write(0, "%s:\t", title)
	var keys []string
	for _, k := range tmplSortedKeys(m) {
		if k != lastAppliedAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.write(0, "<none>\n")
		return
	}
	for i, k := range keys {
		if i > 0 {
			w.write(0, "\t")
		}
		v := strings.TrimSuffix(m[k], "\n")
		if len(v)+len(k)+2 > tmplAnnotationWidth || strings.Contains(v, "\n") {
			w.write(0, "%s:\n", k)
			for _, line := range strings.Split(v, "\n") {
				if len(line) > tmplAnnotationWidth-2 {
					line = line[:tmplAnnotationWidth-2] + "..."
				}
				w.write(0, "\t  %s\n", line)
			}
			continue
		}
		w.write(0, "%s: %s\n", k, v)
	}
}

func tmplContainers(w *tmplWriter, label string, cs []api.Container) {
	if len(cs) == 0 {
		w.write(0, "  %s: <none>\n", label)
	} else {
		w.write(0, "  %s:\n", label)
	}
	for _, c := range cs {
		w.write(1, " %s:\n", c.Name)
		w.write(2, "Image:\t%s\n", c.Image)
		var ports, hostPorts []string
		for _, p := range c.Ports {
			ports = append(ports, fmt.Sprintf("%d/%s", p.ContainerPort, p.Protocol))
			hostPorts = append(hostPorts, fmt.Sprintf("%d/%s", p.HostPort, p.Protocol))
		}
		tmplPorts(w, "Port", ports)
		tmplPorts(w, "Host Port", hostPorts)
		tmplLines(w, "Command", c.Command)
		tmplLines(w, "Args", c.Args)
		tmplResources(w, "Limits", c.Resources.Limits)
		tmplResources(w, "Requests", c.Resources.Requests)
		for _, p := range []struct {
			name  string
			probe *api.Probe
		}{{"Liveness", c.LivenessProbe}, {"Readiness", c.ReadinessProbe}, {"Startup", c.StartupProbe}} {
			if p.probe != nil {
				w.write(2, "%s:\t%s\n", p.name, tmplProbe(p.probe))
			}
		}
		if len(c.EnvFrom) > 0 {
			tmplEnvFrom(w, c.EnvFrom)
		}
		tmplEnv(w, c.Env)
		tmplMounts(w, c.VolumeMounts)
	}
}

func tmplPorts(w *tmplWriter, title string, ports []string) {
	s := strings.Join(ports, ", ")
	switch {
	case len(ports) > 1:
		w.write(2, "%ss:\t%s\n", title, s)
	case s == "":
		w.write(2, "%s:\t<none>\n", title)
	default:
		w.write(2, "%s:\t%s\n", title, s)
	}
}

func tmplLines(w *tmplWriter, title string, items []string) {
	if len(items) == 0 {
		return
	}
	w.write(2, "%s:\n", title)
	for _, item := range items {
		for _, line := range strings.Split(item, "\n") {
			w.write(3, "%s\n", line)
		}
	}
}

func tmplResources(w *tmplWriter, title string, rl api.ResourceList) {
	if len(rl) == 0 {
		return
	}
	w.write(2, "%s:\n", title)
	names := make([]string, 0, len(rl))
	for n := range rl {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		q := rl[api.ResourceName(n)]
		w.write(3, "%s:\t%s\n", n, q.String())
	}
}

// tmplProbe is describe.DescribeProbe.
func tmplProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	switch {
	case p.Exec != nil:
		return fmt.Sprintf("exec [%s] %s", strings.Join(p.Exec.Command, " "), attrs)
	case p.HTTPGet != nil:
		u := &url.URL{Scheme: strings.ToLower(string(p.HTTPGet.Scheme)), Path: p.HTTPGet.Path}
		if port := p.HTTPGet.Port.String(); port != "" {
			u.Host = net.JoinHostPort(p.HTTPGet.Host, port)
		} else {
			u.Host = p.HTTPGet.Host
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", p.TCPSocket.Host, p.TCPSocket.Port.String(), attrs)
	case p.GRPC != nil:
		svc := ""
		if p.GRPC.Service != nil {
			svc = *p.GRPC.Service
		}
		return fmt.Sprintf("grpc <pod>:%d %s %s", p.GRPC.Port, svc, attrs)
	}
	return "unknown " + attrs
}

func tmplEnvFrom(w *tmplWriter, from []api.EnvFromSource) {
	w.write(2, "Environment Variables from:\n")
	for _, e := range from {
		kind, name, optional := "", "", false
		switch {
		case e.ConfigMapRef != nil:
			kind, name, optional = "ConfigMap", e.ConfigMapRef.Name, e.ConfigMapRef.Optional != nil && *e.ConfigMapRef.Optional
		case e.SecretRef != nil:
			kind, name, optional = "Secret", e.SecretRef.Name, e.SecretRef.Optional != nil && *e.SecretRef.Optional
		}
		if e.Prefix == "" {
			w.write(3, "%s\t%s\tOptional: %t\n", name, kind, optional)
		} else {
			w.write(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, kind, e.Prefix, optional)
		}
	}
}

func tmplEnv(w *tmplWriter, env []api.EnvVar) {
	if len(env) == 0 {
		w.write(2, "Environment:\t<none>\n")
		return
	}
	w.write(2, "Environment:\n")
	for _, e := range env {
		if e.ValueFrom == nil {
			for i, line := range strings.Split(e.Value, "\n") {
				if i == 0 {
					w.write(3, "%s:\t%s\n", e.Name, line)
				} else {
					w.write(3, "\t%s\n", line)
				}
			}
			continue
		}
		switch f := e.ValueFrom; {
		case f.FieldRef != nil:
			w.write(3, "%s:\t (%s:%s)\n", e.Name, f.FieldRef.APIVersion, f.FieldRef.FieldPath)
		case f.ResourceFieldRef != nil:
			w.write(3, "%s:\t (%s)\n", e.Name, f.ResourceFieldRef.Resource)
		case f.SecretKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, f.SecretKeyRef.Key, f.SecretKeyRef.Name, f.SecretKeyRef.Optional != nil && *f.SecretKeyRef.Optional)
		case f.ConfigMapKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, f.ConfigMapKeyRef.Key, f.ConfigMapKeyRef.Name, f.ConfigMapKeyRef.Optional != nil && *f.ConfigMapKeyRef.Optional)
		}
	}
}

func tmplMounts(w *tmplWriter, mounts []api.VolumeMount) {
	if len(mounts) == 0 {
		w.write(2, "Mounts:\t<none>\n")
		return
	}
	w.write(2, "Mounts:\n")
	sorted := append([]api.VolumeMount(nil), mounts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].MountPath < sorted[j].MountPath })
	for _, m := range sorted {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.write(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

func tmplVolumes(w *tmplWriter, vols []api.Volume) {
	if len(vols) == 0 {
		w.write(0, "  Volumes:\t<none>\n")
		return
	}
	w.write(0, "  Volumes:\n")
	for _, v := range vols {
		w.write(1, " %s:\n", v.Name)
		s := v.VolumeSource
		switch {
		case s.HostPath != nil:
			typ := "<none>"
			if s.HostPath.Type != nil {
				typ = string(*s.HostPath.Type)
			}
			w.write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", s.HostPath.Path, typ)
		case s.EmptyDir != nil:
			limit := "<unset>"
			if s.EmptyDir.SizeLimit != nil && !s.EmptyDir.SizeLimit.IsZero() {
				limit = s.EmptyDir.SizeLimit.String()
			}
			w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", s.EmptyDir.Medium, limit)
		case s.Secret != nil:
			w.write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n", s.Secret.SecretName, s.Secret.Optional != nil && *s.Secret.Optional)
		case s.ConfigMap != nil:
			w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n", s.ConfigMap.Name, s.ConfigMap.Optional != nil && *s.ConfigMap.Optional)
		case s.PersistentVolumeClaim != nil:
			w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n", s.PersistentVolumeClaim.ClaimName, s.PersistentVolumeClaim.ReadOnly)
		default:
			w.write(2, "<unknown>\n")
		}
	}
}

func tmplTolerations(w *tmplWriter, title string, ts []api.Toleration) {
	w.write(0, "%s:\t", title)
	if len(ts) == 0 {
		w.write(0, "<none>\n")
		return
	}
	sorted := append([]api.Toleration(nil), ts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for i, t := range sorted {
		if i > 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s", t.Key)
		if t.Value != "" {
			w.write(0, "=%s", t.Value)
		}
		if t.Effect != "" {
			w.write(0, ":%s", t.Effect)
		}
		if t.Operator == api.TolerationOpExists && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				w.write(0, " op=Exists")
			} else {
				w.write(0, "op=Exists")
			}
		}
		if t.TolerationSeconds != nil {
			w.write(0, " for %ds", *t.TolerationSeconds)
		}
		w.write(0, "\n")
	}
}

func tmplSortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
