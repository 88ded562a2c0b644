package kubectl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

// More of `kubectl create`'s generators: services, secrets, jobs, cron
// jobs and service accounts, with the objects kubectl v1.32 builds.

func runCreateServiceClusterIP(inv *Invocation) error    { return inv.createService("ClusterIP") }
func runCreateServiceNodePort(inv *Invocation) error     { return inv.createService("NodePort") }
func runCreateServiceLoadBalancer(inv *Invocation) error { return inv.createService("LoadBalancer") }
func runCreateServiceExternalName(inv *Invocation) error { return inv.createService("ExternalName") }

func (inv *Invocation) createService(typ string) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": name}}}
	svc.Spec.Type = api.ServiceType(typ)
	if typ == "ExternalName" {
		ext := inv.Flags.String("external-name")
		if ext == "" {
			return errors.New("external name must be specified")
		}
		svc.Spec.ExternalName = ext
	} else {
		svc.Spec.Selector = map[string]string{"app": name}
	}
	for _, spec := range inv.Flags.Strings("tcp") {
		p, tp, hasTarget := strings.Cut(spec, ":")
		port, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("invalid port %q", p)
		}
		sp := api.ServicePort{Name: strings.ReplaceAll(spec, ":", "-"), Protocol: "TCP", Port: int32(port), TargetPort: intstr.FromInt(port)}
		if hasTarget {
			sp.TargetPort = intstr.Parse(tp)
		}
		if typ == "NodePort" {
			if np := inv.Flags.Int("node-port"); np > 0 {
				sp.NodePort = int32(np)
			}
		}
		svc.Spec.Ports = append(svc.Spec.Ports, sp)
	}
	if typ == "ClusterIP" {
		if ip := inv.Flags.String("clusterip"); ip != "" {
			svc.Spec.ClusterIP = ip
		}
	}
	return inv.createGenerated(svc, "service", false)
}

func runCreateSecretGeneric(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	s := &api.Secret{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: api.ObjectMeta{Name: name}}
	if t := inv.Flags.String("type"); t != "" {
		s.Type = api.SecretType(t)
	}
	add := func(k string, v []byte) error {
		if s.Data == nil {
			s.Data = map[string][]byte{}
		}
		if _, dup := s.Data[k]; dup {
			return fmt.Errorf("cannot add key %s, another key by that name already exists in Data for Secret %q", k, name)
		}
		s.Data[k] = v
		return nil
	}
	for _, lit := range inv.Flags.Strings("from-literal") {
		k, v, ok := strings.Cut(lit, "=")
		if !ok || k == "" {
			return fmt.Errorf("invalid literal source %s, expected key=value", lit)
		}
		if err := add(k, []byte(v)); err != nil {
			return err
		}
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
		if len(srcs) == 1 && srcs[0].name == p {
			if err := add(key, srcs[0].data); err != nil {
				return err
			}
			continue
		}
		for _, src := range srcs {
			if err := add(src.name[strings.LastIndex(src.name, "/")+1:], src.data); err != nil {
				return err
			}
		}
	}
	return inv.createGenerated(s, "secret", true)
}

func runCreateServiceAccount(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	sa := &api.ServiceAccount{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: api.ObjectMeta{Name: name}}
	return inv.createGenerated(sa, "serviceaccount", false)
}

func runCreateJob(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	image, from := inv.Flags.String("image"), inv.Flags.String("from")
	if image == "" && from == "" {
		return errors.New("either --image or --from must be specified")
	}
	if image != "" && from != "" {
		return errors.New("either --image or --from must be specified")
	}
	job := &api.Job{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: api.ObjectMeta{Name: name}}
	if from != "" {
		kind, cjName, ok := strings.Cut(from, "/")
		if !ok || (kind != "cronjob" && kind != "cronjobs" && kind != "cronjob.batch" && kind != "cj") {
			return fmt.Errorf("from must be an existing cronjob: %s", from)
		}
		ns, _ := inv.Namespace()
		cj, err := client.Get[*api.CronJob](inv.Env.Client, ns, cjName)
		if err != nil {
			return fmt.Errorf("failed to retrieve cronjob: %v", err)
		}
		job.Annotations = map[string]string{"cronjob.kubernetes.io/instantiate": "manual"}
		for k, v := range cj.Spec.JobTemplate.Annotations {
			job.Annotations[k] = v
		}
		job.Labels = copyLabels(cj.Spec.JobTemplate.Labels)
		if len(job.Labels) == 0 {
			job.Labels = nil
		}
		job.Spec = *cj.Spec.JobTemplate.Spec.DeepCopy()
		ctrl, block := true, true
		job.OwnerReferences = []api.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: cj.Name, UID: cj.UID, Controller: &ctrl, BlockOwnerDeletion: &block}}
		return inv.createGenerated(job, "job", false)
	}
	c := api.Container{Name: name, Image: image}
	if cmd := commandAfterDashDash(inv.Argv); len(cmd) > 0 {
		c.Command = cmd
	}
	job.Spec.Template.Spec = api.PodSpec{Containers: []api.Container{c}, RestartPolicy: api.RestartPolicyNever}
	return inv.createGenerated(job, "job", false)
}

func runCreateCronJob(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	if err := inv.requireFlag("image"); err != nil {
		return err
	}
	if err := inv.requireFlag("schedule"); err != nil {
		return err
	}
	restart := inv.Flags.String("restart")
	if restart == "" {
		restart = api.RestartPolicyOnFailure
	}
	c := api.Container{Name: name, Image: inv.Flags.String("image")}
	if cmd := commandAfterDashDash(inv.Argv); len(cmd) > 0 {
		c.Command = cmd
	}
	cj := &api.CronJob{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: name}}
	cj.Spec.Schedule = inv.Flags.String("schedule")
	cj.Spec.JobTemplate.Name = name
	cj.Spec.JobTemplate.Spec.Template.Spec = api.PodSpec{Containers: []api.Container{c}, RestartPolicy: api.RestartPolicy(restart)}
	return inv.createGenerated(cj, "cronjob", false)
}

// ClientVersion is the kubectl this terminal plays.
const ClientVersion = "v1.32.5"

func runVersion(inv *Invocation) error {
	if err := inv.checkOutputFormat("json", "yaml"); err != nil {
		return fmt.Errorf("--output must be 'yaml' or 'json'")
	}
	client := map[string]any{"major": "1", "minor": "32", "gitVersion": ClientVersion, "gitCommit": "kubeplay", "gitTreeState": "clean",
		"buildDate": "2025-04-22T16:03:51Z", "goVersion": "go1.23.8", "compiler": "gc", "platform": "linux/amd64"}
	switch inv.outputFormat() {
	case "json", "yaml":
		v := map[string]any{"clientVersion": client, "kustomizeVersion": "v5.5.0"}
		if !inv.Flags.Bool("client") {
			v["serverVersion"] = apiserver.Version
		}
		if inv.outputFormat() == "json" {
			return writeJSON(inv.out(), v)
		}
		return writeYAML(inv.out(), v)
	}
	fmt.Fprintf(inv.out(), "Client Version: %s\nKustomize Version: v5.5.0\n", ClientVersion)
	if !inv.Flags.Bool("client") {
		fmt.Fprintf(inv.out(), "Server Version: %s\n", apiserver.Version["gitVersion"])
	}
	return nil
}

func runClusterInfo(inv *Invocation) error {
	server := "https://127.0.0.1:6443"
	if s := inv.Env.Config.server(); s != "" {
		server = s
	}
	fmt.Fprintf(inv.out(), "Kubernetes control plane is running at %s\n", server)
	if _, err := client.Get[*api.Service](inv.Env.Client, "kube-system", "kube-dns"); err == nil {
		fmt.Fprintf(inv.out(), "CoreDNS is running at %s/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n", server)
	}
	fmt.Fprintln(inv.out(), "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.")
	return nil
}
