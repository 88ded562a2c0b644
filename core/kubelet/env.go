package kubelet

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/kubelet/runtime"
)

// makeEnvironment builds a container's environment as the kubelet does:
// the image's variables, the docker-links variables of the namespace's
// services, envFrom, then env in order with $(VAR) references expanded.
func (k *Kubelet) makeEnvironment(ps *podState, c *containerState) ([]string, error) {
	pod := ps.pod
	if len(c.spec.Env) == 0 && len(c.spec.EnvFrom) == 0 {
		return k.plainEnvironment(pod, c), nil
	}
	e := k.baseEnvironment(pod, c)
	for _, from := range c.spec.EnvFrom {
		data, err := k.envFromData(pod, from)
		if err != nil {
			return nil, err
		}
		keys := make([]string, 0, len(data))
		for key := range data {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			e.set(from.Prefix+key, data[key])
		}
	}
	for _, v := range c.spec.Env {
		if v.ValueFrom == nil {
			e.set(v.Name, expand(v.Value, e.vals))
			continue
		}
		val, ok, err := k.envValueFrom(ps, c, v.ValueFrom)
		if err != nil {
			return nil, err
		}
		if ok {
			e.set(v.Name, val)
		}
	}
	return joinEnv(e.order, e.vals), nil
}

// environment is a container's variables as they are set: a later value
// replaces an earlier one in its place.
type environment struct {
	vals  map[string]string
	order []string
}

func (e *environment) set(name, value string) {
	if _, ok := e.vals[name]; !ok {
		e.order = append(e.order, name)
	}
	e.vals[name] = value
}

// baseEnvironment is what every container starts from: its image's
// variables, then the docker-links variables of the namespace's services.
func (k *Kubelet) baseEnvironment(pod *api.Pod, c *containerState) *environment {
	e := &environment{vals: map[string]string{}}
	if im, ok := k.images.present[normalizedImage(c.spec.Image)]; ok {
		for _, kv := range im.Env {
			n, v, _ := strings.Cut(kv, "=")
			e.set(n, v)
		}
	}
	for _, kv := range k.serviceEnv(pod.Namespace, serviceLinks(pod)) {
		n, v, _ := strings.Cut(kv, "=")
		e.set(n, v)
	}
	return e
}

func serviceLinks(pod *api.Pod) bool {
	return pod.Spec.EnableServiceLinks == nil || *pod.Spec.EnableServiceLinks
}

// plainEnvironment is the environment of a container that sets none of
// its own: the same for every such container of a namespace on the image,
// so it is kept until a service changes or the image is pulled again.
// Containers only read it.
func (k *Kubelet) plainEnvironment(pod *api.Pod, c *containerState) []string {
	key := plainEnvKey{normalizedImage(c.spec.Image), pod.Namespace, serviceLinks(pod)}
	im := k.images.present[key.image]
	if m, ok := k.plainEnv[key]; ok && m.image == im && m.revision == k.svcInf.Revision() {
		return m.env
	}
	e := k.baseEnvironment(pod, c)
	env := joinEnv(e.order, e.vals)
	if k.plainEnv == nil {
		k.plainEnv = map[plainEnvKey]plainEnvMemo{}
	}
	k.plainEnv[key] = plainEnvMemo{image: im, revision: k.svcInf.Revision(), env: env}
	return env
}

type plainEnvKey struct {
	image, namespace string
	links            bool
}

type plainEnvMemo struct {
	image    *runtime.Image // as present when the list was made
	revision uint64         // of the services
	env      []string
}

// joinEnv lists NAME=value in order. The container keeps the list while
// it runs, so the entries are cut from one string rather than made one by
// one.
func joinEnv(order []string, vals map[string]string) []string {
	size := 0
	for _, n := range order {
		size += len(n) + 1 + len(vals[n])
	}
	var b strings.Builder
	b.Grow(size)
	for _, n := range order {
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(vals[n])
	}
	all := b.String()
	out := make([]string, len(order))
	for i, n := range order {
		end := len(n) + 1 + len(vals[n])
		out[i], all = all[:end], all[end:]
	}
	return out
}

func normalizedImage(ref string) string { return runtime.Normalize(ref) }

// serviceEnv lists the docker-links variables: the kubernetes service's
// always, the namespace's other services when service links are on.
func (k *Kubelet) serviceEnv(namespace string, links bool) []string {
	key := serviceEnvKey{namespace, links}
	if m, ok := k.svcEnv[key]; ok && m.revision == k.svcInf.Revision() {
		return m.env
	}
	env := k.buildServiceEnv(namespace, links)
	if k.svcEnv == nil {
		k.svcEnv = map[serviceEnvKey]serviceEnvMemo{}
	}
	k.svcEnv[key] = serviceEnvMemo{k.svcInf.Revision(), env}
	return env
}

// serviceEnvKey and serviceEnvMemo keep a namespace's service variables
// until a service changes: every container start reads them.
type serviceEnvKey struct {
	namespace string
	links     bool
}

type serviceEnvMemo struct {
	revision uint64
	env      []string
}

func (k *Kubelet) buildServiceEnv(namespace string, links bool) []string {
	var svcs []*api.Service
	for _, o := range k.svcInf.List("") {
		s := o.(*api.Service)
		if s.Spec.ClusterIP == "" || s.Spec.ClusterIP == "None" {
			continue
		}
		if s.Namespace == namespace && links || s.Namespace == "default" && s.Name == "kubernetes" {
			svcs = append(svcs, s)
		}
	}
	sort.Slice(svcs, func(i, j int) bool { return svcs[i].Name < svcs[j].Name })
	var out []string
	for _, s := range svcs {
		prefix := strings.ToUpper(strings.ReplaceAll(s.Name, "-", "_"))
		if len(s.Spec.Ports) == 0 {
			continue
		}
		ip := s.Spec.ClusterIP
		first := s.Spec.Ports[0]
		out = append(out, prefix+"_SERVICE_HOST="+ip, prefix+"_SERVICE_PORT="+strconv.Itoa(int(first.Port)))
		for _, p := range s.Spec.Ports {
			if p.Name != "" {
				out = append(out, prefix+"_SERVICE_PORT_"+strings.ToUpper(strings.ReplaceAll(p.Name, "-", "_"))+"="+strconv.Itoa(int(p.Port)))
			}
		}
		proto := strings.ToLower(string(first.Protocol))
		if proto == "" {
			proto = "tcp"
		}
		out = append(out, fmt.Sprintf("%s_PORT=%s://%s:%d", prefix, proto, ip, first.Port))
		for _, p := range s.Spec.Ports {
			pr := strings.ToLower(string(p.Protocol))
			if pr == "" {
				pr = "tcp"
			}
			base := fmt.Sprintf("%s_PORT_%d_%s", prefix, p.Port, strings.ToUpper(pr))
			out = append(out, fmt.Sprintf("%s=%s://%s:%d", base, pr, ip, p.Port), base+"_PROTO="+pr,
				fmt.Sprintf("%s_PORT=%d", base, p.Port), base+"_ADDR="+ip)
		}
	}
	return out
}

func (k *Kubelet) envFromData(pod *api.Pod, from api.EnvFromSource) (map[string]string, error) {
	switch {
	case from.ConfigMapRef != nil:
		cm, err := client.Get[*api.ConfigMap](k.client, pod.Namespace, from.ConfigMapRef.Name)
		if err != nil {
			if from.ConfigMapRef.Optional != nil && *from.ConfigMapRef.Optional {
				return nil, nil
			}
			return nil, fmt.Errorf("configmap %q not found", from.ConfigMapRef.Name)
		}
		return cm.Data, nil
	case from.SecretRef != nil:
		s, err := client.Get[*api.Secret](k.client, pod.Namespace, from.SecretRef.Name)
		if err != nil {
			if from.SecretRef.Optional != nil && *from.SecretRef.Optional {
				return nil, nil
			}
			return nil, fmt.Errorf("secret %q not found", from.SecretRef.Name)
		}
		out := map[string]string{}
		for key, v := range s.Data {
			out[key] = string(v)
		}
		return out, nil
	}
	return nil, nil
}

// envValueFrom resolves a valueFrom; ok is false for an optional key that
// is missing (the variable is then left out).
func (k *Kubelet) envValueFrom(ps *podState, c *containerState, src *api.EnvVarSource) (string, bool, error) {
	pod := ps.pod
	switch {
	case src.FieldRef != nil:
		v, err := podFieldValue(pod, ps, src.FieldRef.FieldPath, k.opts.NodeIP)
		return v, err == nil, err
	case src.ResourceFieldRef != nil:
		v, err := k.resourceFieldValue(pod, c, src.ResourceFieldRef)
		return v, err == nil, err
	case src.ConfigMapKeyRef != nil:
		ref := src.ConfigMapKeyRef
		optional := ref.Optional != nil && *ref.Optional
		cm, err := client.Get[*api.ConfigMap](k.client, pod.Namespace, ref.Name)
		if err != nil {
			if optional {
				return "", false, nil
			}
			return "", false, fmt.Errorf("configmap %q not found", ref.Name)
		}
		v, ok := cm.Data[ref.Key]
		if !ok {
			if optional {
				return "", false, nil
			}
			return "", false, fmt.Errorf("couldn't find key %s in ConfigMap %s/%s", ref.Key, pod.Namespace, ref.Name)
		}
		return v, true, nil
	case src.SecretKeyRef != nil:
		ref := src.SecretKeyRef
		optional := ref.Optional != nil && *ref.Optional
		s, err := client.Get[*api.Secret](k.client, pod.Namespace, ref.Name)
		if err != nil {
			if optional {
				return "", false, nil
			}
			return "", false, fmt.Errorf("secret %q not found", ref.Name)
		}
		v, ok := s.Data[ref.Key]
		if !ok {
			if optional {
				return "", false, nil
			}
			return "", false, fmt.Errorf("couldn't find key %s in Secret %s/%s", ref.Key, pod.Namespace, ref.Name)
		}
		return string(v), true, nil
	}
	return "", false, nil
}

// podFieldValue reads a downward-API field path of the pod.
func podFieldValue(pod *api.Pod, ps *podState, path, nodeIP string) (string, error) {
	if strings.HasPrefix(path, "metadata.labels['") && strings.HasSuffix(path, "']") {
		return pod.Labels[path[len("metadata.labels['"):len(path)-2]], nil
	}
	if strings.HasPrefix(path, "metadata.annotations['") && strings.HasSuffix(path, "']") {
		return pod.Annotations[path[len("metadata.annotations['"):len(path)-2]], nil
	}
	switch path {
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return pod.UID, nil
	case "metadata.labels":
		return formatMap(pod.Labels), nil
	case "metadata.annotations":
		return formatMap(pod.Annotations), nil
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		return nodeIP, nil
	case "status.podIP", "status.podIPs":
		return ps.ip, nil
	}
	return "", fmt.Errorf("unsupported fieldPath: %s", path)
}

// formatMap renders labels or annotations as the downward API's files do.
func formatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	lines := make([]string, len(keys))
	for i, key := range keys {
		lines[i] = key + "=" + strconv.Quote(m[key])
	}
	return strings.Join(lines, "\n")
}

// resourceFieldValue reads a container's request or limit, divided by the
// divisor and rounded up; an unset limit reads the node's allocatable.
func (k *Kubelet) resourceFieldValue(pod *api.Pod, c *containerState, ref *api.ResourceFieldSelector) (string, error) {
	target := c.spec
	if ref.ContainerName != "" {
		for i := range pod.Spec.Containers {
			if ct := &pod.Spec.Containers[i]; ct.Name == ref.ContainerName {
				target = ct
			}
		}
	}
	kind, name, _ := strings.Cut(ref.Resource, ".")
	var q resource.Quantity
	var ok bool
	switch kind {
	case "limits":
		q, ok = target.Resources.Limits[api.ResourceName(name)]
		if !ok {
			q, ok = k.allocatable()[api.ResourceName(name)]
		}
	case "requests":
		q, ok = target.Resources.Requests[api.ResourceName(name)]
	}
	if !ok {
		return "0", nil
	}
	div := ref.Divisor
	if div.IsZero() {
		div = resource.MustParse("1")
	}
	if name == "cpu" {
		m, d := q.MilliValue(), div.MilliValue()
		if d == 0 {
			d = 1000
		}
		return strconv.FormatInt((m+d-1)/d, 10), nil
	}
	v, d := q.Value(), div.Value()
	if d == 0 {
		d = 1
	}
	return strconv.FormatInt((v+d-1)/d, 10), nil
}

// expand replaces $(VAR) with VAR's value when it is defined, and $$ with $,
// as the kubelet's expansion of env, command and args does.
func expand(s string, vals map[string]string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := vals[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// expandAll expands $(VAR) references in a command or its args.
func expandAll(words []string, env []string) []string {
	if len(words) == 0 {
		return nil
	}
	vals := map[string]string{}
	for _, kv := range env {
		n, v, _ := strings.Cut(kv, "=")
		vals[n] = v
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = expand(w, vals)
	}
	return out
}
