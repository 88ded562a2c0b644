package kubectl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
)

// runRun is `kubectl run NAME --image=IMAGE [-- args]`: one pod labelled
// run=NAME. With --attach or -i it waits for the pod, prints what it
// writes, and with --rm deletes it afterwards.
func runRun(inv *Invocation) error {
	if err := inv.requireFlag("image"); err != nil {
		return err
	}
	if len(inv.Args) == 0 {
		return usageErrorf(inv.Cmd, "NAME is required for run")
	}
	name := inv.Args[0]
	if err := inv.requireFlag("image"); err != nil {
		return err
	}
	image := inv.Flags.String("image")
	restart := inv.Flags.String("restart")
	switch restart {
	case "Always", "OnFailure", "Never":
	default:
		return fmt.Errorf("invalid restart policy: %s", restart)
	}
	attach := inv.Flags.Bool("attach") || inv.Flags.Bool("stdin")
	if inv.Flags.Bool("rm") && !attach {
		return errors.New("rm should only be used for attached containers")
	}
	rest := inv.Args[1:]
	c := api.Container{Name: name, Image: image}
	if inv.Flags.Bool("command") {
		if len(rest) == 0 {
			return errors.New("--command requires a command")
		}
		c.Command = rest
	} else if len(rest) > 0 {
		c.Args = rest
	}
	if p := inv.Flags.String("port"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("invalid port %q: %v", p, err)
		}
		c.Ports = []api.ContainerPort{{ContainerPort: int32(n)}}
	}
	for _, e := range inv.Flags.Strings("env") {
		k, v, _ := strings.Cut(e, "=")
		c.Env = append(c.Env, api.EnvVar{Name: k, Value: v})
	}
	if pp := inv.Flags.String("image-pull-policy"); pp != "" {
		c.ImagePullPolicy = api.PullPolicy(pp)
	}
	if inv.Flags.Bool("stdin") {
		c.Stdin, c.StdinOnce = true, true
		c.TTY = inv.Flags.Bool("tty")
	}
	labels := map[string]string{"run": name}
	if l := inv.Flags.String("labels"); l != "" {
		labels = map[string]string{}
		for _, kv := range strings.Split(l, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("invalid label spec: %s", kv)
			}
			labels[k] = v
		}
	}
	pod := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{c}, RestartPolicy: api.RestartPolicy(restart), DNSPolicy: api.DNSClusterFirst},
	}
	for _, a := range inv.Flags.Strings("annotations") {
		k, v, _ := strings.Cut(a, "=")
		setAnnotation(pod, k, v)
	}
	obj, err := inv.applyOverrides(pod)
	if err != nil {
		return err
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return fmt.Errorf("--overrides made a %s, not a Pod", obj.GetTypeMeta().Kind)
	}
	if !attach || inv.dryRun() != "none" && inv.dryRun() != "" {
		return inv.createGenerated(pod, "pod", false)
	}
	ns, _ := inv.Namespace()
	pod.Namespace = ns
	if _, err := client.Create(inv.Env.Client, pod); err != nil {
		return err
	}
	if inv.Flags.Bool("tty") {
		fmt.Fprintln(inv.errOut(), "If you don't see a command prompt, try pressing enter.")
	}
	// Wait for the pod to finish (or, for a long-running one, to start),
	// then print its output.
	deadline := inv.now().Add(inv.Flags.Duration("pod-running-timeout"))
	for {
		p, err := client.Get[*api.Pod](inv.Env.Client, ns, name)
		if err != nil {
			return err
		}
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			break
		}
		if !inv.now().Before(deadline) {
			return fmt.Errorf("timed out waiting for the condition")
		}
		if !inv.advance(time.Second) {
			break
		}
	}
	if inv.Env.Logs != nil {
		out, err := inv.Env.Logs(LogsRequest{Namespace: ns, Pod: name, Container: name, TailLines: -1})
		if err == nil {
			fmt.Fprint(inv.out(), out)
		}
	}
	if inv.Flags.Bool("rm") {
		if err := client.Delete[*api.Pod](inv.Env.Client, ns, name, api.DeleteOptions{}); err != nil {
			return err
		}
		fmt.Fprintf(inv.out(), "pod %q deleted\n", name)
	}
	return nil
}

// runExpose is `kubectl expose TYPE NAME --port=...`: a service selecting
// the object's pods.
func runExpose(inv *Invocation) error {
	if len(inv.Args) == 0 {
		return usageErrorf(inv.Cmd, "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
	}
	rargs, err := inv.resourceArgs(inv.Args)
	if err != nil {
		return err
	}
	ns, _ := inv.Namespace()
	for _, ra := range rargs {
		for _, n := range ra.Names {
			obj, err := inv.Env.Client.Get(ra.Resource, ns, n)
			if err != nil {
				return err
			}
			if err := inv.exposeOne(obj); err != nil {
				return err
			}
		}
	}
	return nil
}

func (inv *Invocation) exposeOne(obj api.Object) error {
	m := obj.GetObjectMeta()
	var selector map[string]string
	var ports []api.ContainerPort
	switch o := obj.(type) {
	case *api.Pod:
		selector = o.Labels
		ports = containerPorts(o.Spec.Containers)
	case *api.Deployment:
		if o.Spec.Selector != nil {
			if len(o.Spec.Selector.MatchExpressions) > 0 {
				return errors.New("couldn't retrieve selectors via --selector flag or introspection: the selector of deployment has match expressions; invalid selector")
			}
			selector = o.Spec.Selector.MatchLabels
		}
		ports = containerPorts(o.Spec.Template.Spec.Containers)
	case *api.ReplicaSet:
		if o.Spec.Selector != nil {
			selector = o.Spec.Selector.MatchLabels
		}
		ports = containerPorts(o.Spec.Template.Spec.Containers)
	case *api.StatefulSet:
		if o.Spec.Selector != nil {
			selector = o.Spec.Selector.MatchLabels
		}
		ports = containerPorts(o.Spec.Template.Spec.Containers)
	case *api.Service:
		selector = o.Spec.Selector
	default:
		return fmt.Errorf("cannot expose a %s", obj.GetTypeMeta().Kind)
	}
	if s := inv.Flags.String("selector"); s != "" {
		selector = map[string]string{}
		for _, kv := range strings.Split(s, ",") {
			k, v, _ := strings.Cut(kv, "=")
			selector[k] = v
		}
	}
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: api.ObjectMeta{Name: m.Name, Labels: copyLabels(m.Labels)}}
	if len(m.Labels) == 0 {
		svc.Labels = nil
	}
	if n := inv.Flags.String("name"); n != "" {
		svc.Name = n
	}
	svc.Spec.Selector = copyLabels(selector)
	proto := api.Protocol(inv.Flags.String("protocol"))
	if proto == "" {
		proto = "TCP"
	}
	var portNums []int32
	if p := inv.Flags.String("port"); p != "" {
		for _, s := range strings.Split(p, ",") {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("invalid port %q", s)
			}
			portNums = append(portNums, int32(n))
		}
	} else {
		for _, cp := range ports {
			portNums = append(portNums, cp.ContainerPort)
		}
	}
	if len(portNums) == 0 {
		return fmt.Errorf("couldn't find port via --port flag or introspection")
	}
	for i, p := range portNums {
		sp := api.ServicePort{Port: p, Protocol: proto, TargetPort: intstr.FromInt(int(p))}
		if tp := inv.Flags.String("target-port"); tp != "" {
			sp.TargetPort = intstr.Parse(tp)
		}
		if len(portNums) > 1 {
			sp.Name = "port-" + strconv.Itoa(i+1)
		}
		svc.Spec.Ports = append(svc.Spec.Ports, sp)
	}
	if t := inv.Flags.String("type"); t != "" {
		svc.Spec.Type = api.ServiceType(t)
	}
	if ip := inv.Flags.String("cluster-ip"); ip != "" {
		svc.Spec.ClusterIP = ip
	}
	// run --expose makes its service without the pod's overrides.
	var out api.Object = svc
	if inv.Cmd.key() == "expose" {
		var err error
		if out, err = inv.applyOverrides(svc); err != nil {
			return err
		}
	}
	return inv.createGeneratedOp(out, "service", false, "exposed")
}

func containerPorts(cs []api.Container) []api.ContainerPort {
	var out []api.ContainerPort
	for _, c := range cs {
		out = append(out, c.Ports...)
	}
	return out
}
