package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// podForCommand resolves logs/exec's POD or TYPE/NAME to one pod: a pod by
// name, or the first pod (by name) that a workload's selector matches.
func (inv *Invocation) podForCommand(arg string) (*api.Pod, error) {
	ns, _ := inv.Namespace()
	cl := inv.Env.Client
	typ, name, hasType := strings.Cut(arg, "/")
	if !hasType {
		return client.Get[*api.Pod](cl, ns, arg)
	}
	res, err := inv.resolveType(typ)
	if err != nil {
		return nil, err
	}
	obj, err := cl.Get(res, ns, name)
	if err != nil {
		return nil, err
	}
	if p, ok := obj.(*api.Pod); ok {
		return p, nil
	}
	var selector *api.LabelSelector
	switch o := obj.(type) {
	case *api.Deployment:
		selector = o.Spec.Selector
	case *api.ReplicaSet:
		selector = o.Spec.Selector
	case *api.StatefulSet:
		selector = o.Spec.Selector
	case *api.DaemonSet:
		selector = o.Spec.Selector
	case *api.Job:
		selector = o.Spec.Selector
	case *api.Service:
		if len(o.Spec.Selector) > 0 {
			selector = &api.LabelSelector{MatchLabels: o.Spec.Selector}
		}
	default:
		return nil, fmt.Errorf("cannot attach to %s: selector for %s not implemented", res.Kind, strings.ToLower(res.Kind))
	}
	sel, err := labels.SelectorFromLabelSelector(selector)
	if err != nil {
		return nil, err
	}
	pods := client.List[*api.Pod](cl, ns, func(o api.Object) bool { return sel.Matches(labels.Set(o.GetObjectMeta().Labels)) })
	if len(pods) == 0 {
		return nil, fmt.Errorf("timed out waiting for the condition")
	}
	best := pods[0]
	for _, p := range pods[1:] {
		if p.Name < best.Name {
			best = p
		}
	}
	return best, nil
}

// defaultContainer picks -c, the default-container annotation, or the
// first container, telling the user when there was a choice.
func (inv *Invocation) defaultContainer(pod *api.Pod) (string, error) {
	if c := inv.Flags.String("container"); c != "" {
		return c, nil
	}
	names := make([]string, 0, len(pod.Spec.Containers))
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		return "", fmt.Errorf("pod %s has no containers", pod.Name)
	}
	chosen := names[0]
	if a := pod.Annotations["kubectl.kubernetes.io/default-container"]; a != "" {
		for _, n := range names {
			if n == a {
				return a, nil
			}
		}
	}
	if len(names) > 1 || len(pod.Spec.InitContainers) > 0 {
		all := append([]string(nil), names...)
		for _, c := range pod.Spec.InitContainers {
			all = append(all, c.Name)
		}
		fmt.Fprintf(inv.errOut(), "Defaulted container %q out of: %s\n", chosen, strings.Join(all, ", "))
	}
	return chosen, nil
}

func runLogs(inv *Invocation) error {
	if len(inv.Args) == 0 && inv.Flags.String("selector") == "" {
		return usageErrorf(inv.Cmd, "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command")
	}
	if len(inv.Args) > 2 {
		return usageErrorf(inv.Cmd, "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command")
	}
	if inv.Env.Logs == nil {
		return errors.New("logs are not available in this cluster")
	}
	pod, err := inv.podForCommand(inv.Args[0])
	if err != nil {
		return err
	}
	container := ""
	if len(inv.Args) == 2 {
		container = inv.Args[1]
	}
	var containers []string
	switch {
	case inv.Flags.Bool("all-containers"):
		for _, c := range pod.Spec.InitContainers {
			containers = append(containers, c.Name)
		}
		for _, c := range pod.Spec.Containers {
			containers = append(containers, c.Name)
		}
	case container != "":
		containers = []string{container}
	default:
		c, err := inv.defaultContainer(pod)
		if err != nil {
			return err
		}
		containers = []string{c}
	}
	for _, c := range containers {
		if !hasContainer(pod, c) {
			return apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", c, pod.Name))
		}
		out, err := inv.Env.Logs(LogsRequest{
			Namespace: pod.Namespace, Pod: pod.Name, Container: c,
			Previous: inv.Flags.Bool("previous"), Timestamps: inv.Flags.Bool("timestamps"),
			TailLines: inv.Flags.Int("tail"), SinceSeconds: int64(inv.Flags.Duration("since").Seconds()),
			LimitBytes: inv.Flags.Int("limit-bytes"), Follow: inv.Flags.Bool("follow"),
		})
		if err != nil {
			return err
		}
		if inv.Flags.Bool("prefix") {
			var b strings.Builder
			for _, line := range strings.SplitAfter(out, "\n") {
				if line != "" {
					fmt.Fprintf(&b, "[pod/%s/%s] %s", pod.Name, c, line)
				}
			}
			out = b.String()
		}
		fmt.Fprint(inv.out(), out)
	}
	return nil
}

func hasContainer(pod *api.Pod, name string) bool {
	for _, c := range pod.Spec.Containers {
		if c.Name == name {
			return true
		}
	}
	for _, c := range pod.Spec.InitContainers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func runExec(inv *Invocation) error {
	dash := inv.Flags.ArgsLenAtDash()
	args := inv.Args
	if len(args) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		return usageErrorf(inv.Cmd, "pod, type/name or --filename must be specified")
	}
	if dash < 0 && len(args) > 1 {
		return usageErrorf(inv.Cmd, "exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead")
	}
	var command []string
	if dash >= 0 {
		command = args[dash:]
		args = args[:dash]
	}
	if len(args) == 0 {
		return usageErrorf(inv.Cmd, "pod, type/name or --filename must be specified")
	}
	if len(command) == 0 {
		return errors.New("you must specify at least one command for the container")
	}
	if inv.Env.Exec == nil {
		return errors.New("exec is not available in this cluster")
	}
	pod, err := inv.podForCommand(args[0])
	if err != nil {
		return err
	}
	if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return fmt.Errorf("cannot exec into a container in a completed pod; current phase is %s", pod.Status.Phase)
	}
	container, err := inv.defaultContainer(pod)
	if err != nil {
		return err
	}
	if !hasContainer(pod, container) {
		return apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", container, pod.Name))
	}
	code := inv.Env.Exec(ExecRequest{Namespace: pod.Namespace, Pod: pod.Name, Container: container, Command: command,
		Stdin: inv.Env.Stdin, Stdout: inv.out(), Stderr: inv.errOut(), TTY: inv.Flags.Bool("tty")})
	if code < 0 {
		return errExit
	}
	if code != 0 {
		fmt.Fprintf(inv.errOut(), "command terminated with exit code %d\n", code)
		return exitError{code}
	}
	return nil
}
