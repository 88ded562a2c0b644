package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
)

func runCreateNamespace(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: name}}
	return inv.createGenerated(ns, "namespace", false)
}

func runCreateConfigMap(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: name}}
	for _, lit := range inv.Flags.Strings("from-literal") {
		k, v, ok := strings.Cut(lit, "=")
		if !ok || k == "" {
			return fmt.Errorf("invalid literal source %s, expected key=value", lit)
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		if _, dup := cm.Data[k]; dup {
			return fmt.Errorf("cannot add key %q, another key by that name already exists in Data for ConfigMap %q", k, name)
		}
		cm.Data[k] = v
	}
	for _, f := range inv.Flags.Strings("from-file") {
		key, p, ok := strings.Cut(f, "=")
		if !ok {
			p = f
			key = p[strings.LastIndex(p, "/")+1:]
		}
		srcs, err := inv.readPath(p, false, true)
		if err != nil {
			return err
		}
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		if len(srcs) == 1 && srcs[0].name == p {
			cm.Data[key] = string(srcs[0].data)
			continue
		}
		for _, s := range srcs {
			cm.Data[s.name[strings.LastIndex(s.name, "/")+1:]] = string(s.data)
		}
	}
	return inv.createGenerated(cm, "configmap", true)
}

func runCreateDeployment(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	if err := inv.requireFlag("image"); err != nil {
		return err
	}
	images := inv.Flags.Strings("image")
	if len(images) > 1 && len(inv.Argv) > 0 && containsDashDash(inv.Argv) {
		return fmt.Errorf("cannot specify multiple --image options and command")
	}
	labels := map[string]string{"app": name}
	replicas := int32(inv.Flags.Int("replicas"))
	var containers []api.Container
	for _, img := range images {
		c := api.Container{Name: containerNameFor(inv, img), Image: img}
		if p := inv.Flags.Int("port"); p > 0 {
			c.Ports = []api.ContainerPort{{ContainerPort: int32(p)}}
		}
		c.Command = commandAfterDashDash(inv.Argv)
		containers = append(containers, c)
	}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: copyLabels(labels)},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: copyLabels(labels)},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: copyLabels(labels)},
				Spec:       api.PodSpec{Containers: containers},
			},
		},
	}
	return inv.createGenerated(d, "deployment", true)
}

// containerNameFor is kubectl's container name for an image: the last path
// segment without tag or digest, underscores made dashes (and then made
// unique with a random suffix, as kubectl does).
func containerNameFor(inv *Invocation, image string) string {
	name := image[strings.LastIndex(image, "/")+1:]
	if i := strings.IndexAny(name, ":@"); i >= 0 {
		name = name[:i]
	}
	if strings.Contains(name, "_") {
		name = strings.ReplaceAll(name, "_", "-")
		name += "-" + randomSuffix(inv)
	}
	return name
}

// randomSuffix is five characters of the seeded alphabet kubectl uses.
func randomSuffix(inv *Invocation) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	seed := inv.now().UnixNano()
	var b strings.Builder
	for i := 0; i < 5; i++ {
		seed = seed*6364136223846793005 + 1442695040888963407
		b.WriteByte(alphabet[int(uint64(seed)>>33)%len(alphabet)])
	}
	return b.String()
}

func containsDashDash(argv []string) bool {
	for _, a := range argv {
		if a == "--" {
			return true
		}
	}
	return false
}

func commandAfterDashDash(argv []string) []string {
	for i, a := range argv {
		if a == "--" {
			return append([]string(nil), argv[i+1:]...)
		}
	}
	return nil
}

func copyLabels(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}
