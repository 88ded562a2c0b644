package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// podForCommand resolves logs/exec's POD or TYPE/NAME to one pod: a pod by
// name, or the best of the pods a workload's selector matches. kubectl
// sorts them (sort.Sort over the list in the server's order): logs by
// podutils.ByLogging, saying "Found N pods, using pod/NAME" when there was a
// choice; exec and attach by sort.Reverse(podutils.ActivePods), silently.
func (inv *Invocation) podForCommand(arg string, forLogs bool) (*api.Pod, error) {
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
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	if forLogs {
		sort.Sort(podsByLogging(pods))
		if len(pods) > 1 {
			fmt.Fprintf(inv.errOut(), "Found %d pods, using pod/%s\n", len(pods), pods[0].Name)
		}
	} else {
		sort.Sort(sort.Reverse(activePods(pods)))
	}
	return pods[0], nil
}

// podsByLogging is kubectl's podutils.ByLogging: the pod whose logs are
// most worth reading first (scheduled, running, ready the longest, most
// restarted, oldest).
type podsByLogging []*api.Pod

func (s podsByLogging) Len() int      { return len(s) }
func (s podsByLogging) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s podsByLogging) Less(i, j int) bool {
	a, b := s[i], s[j]
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName != ""
	}
	rank := map[api.PodPhase]int{api.PodRunning: 0, api.PodUnknown: 1, api.PodPending: 2}
	if rank[a.Status.Phase] != rank[b.Status.Phase] {
		return rank[a.Status.Phase] < rank[b.Status.Phase]
	}
	ra, rb := podReady(a), podReady(b)
	if ra != rb {
		return ra
	}
	if ta, tb := podReadyTime(a), podReadyTime(b); ra && rb && !ta.Equal(tb) {
		return afterOrZero(tb, ta)
	}
	if ma, mb := maxRestarts(a), maxRestarts(b); ma != mb {
		return ma > mb
	}
	if ca, cb := a.CreationTimestamp.Time, b.CreationTimestamp.Time; !ca.Equal(cb) {
		return afterOrZero(cb, ca)
	}
	return false
}

// activePods is kubectl's podutils.ActivePods: the least active pod first
// (unscheduled, pending, not ready, ready the shortest, most restarted,
// newest).
type activePods []*api.Pod

func (s activePods) Len() int      { return len(s) }
func (s activePods) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s activePods) Less(i, j int) bool {
	a, b := s[i], s[j]
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	rank := map[api.PodPhase]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}
	if rank[a.Status.Phase] != rank[b.Status.Phase] {
		return rank[a.Status.Phase] < rank[b.Status.Phase]
	}
	ra, rb := podReady(a), podReady(b)
	if ra != rb {
		return !ra
	}
	if ta, tb := podReadyTime(a), podReadyTime(b); ra && rb && !ta.Equal(tb) {
		return afterOrZero(ta, tb)
	}
	if ma, mb := maxRestarts(a), maxRestarts(b); ma != mb {
		return ma > mb
	}
	if ca, cb := a.CreationTimestamp.Time, b.CreationTimestamp.Time; !ca.Equal(cb) {
		return afterOrZero(ca, cb)
	}
	return false
}

func podReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// podReadyTime is when the Ready condition turned True (zero if it is not).
func podReadyTime(p *api.Pod) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady && c.Status == api.ConditionTrue {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// afterOrZero: t1 is after t2, a zero time counting as after any other.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

func maxRestarts(p *api.Pod) int32 {
	var n int32
	for _, c := range p.Status.ContainerStatuses {
		n = max(n, c.RestartCount)
	}
	return n
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
	if len(names) > 1 || len(pod.Spec.InitContainers) > 0 || len(pod.Spec.EphemeralContainers) > 0 {
		// podcmd.AllContainerNames: containers, then ephemeral, then init ones.
		all := append([]string(nil), names...)
		for _, c := range pod.Spec.EphemeralContainers {
			all = append(all, c.Name+" (ephem)")
		}
		for _, c := range pod.Spec.InitContainers {
			all = append(all, c.Name+" (init)")
		}
		fmt.Fprintf(inv.errOut(), "Defaulted container %q out of: %s\n", chosen, strings.Join(all, ", "))
	}
	return chosen, nil
}

func runLogs(inv *Invocation) error {
	sel := inv.Flags.String("selector")
	if len(inv.Args) == 0 && sel == "" || len(inv.Args) > 2 {
		return usageErrorf(inv.Cmd, "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command")
	}
	if sel != "" && len(inv.Args) > 0 {
		return usageErrorf(inv.Cmd, "only a selector (-l) or a POD name is allowed")
	}
	if inv.Env.Logs == nil {
		return errors.New("logs are not available in this cluster")
	}
	var pods []*api.Pod
	tail := inv.Flags.Int("tail")
	if sel != "" {
		var err error
		if pods, err = inv.podsBySelector(); err != nil || len(pods) == 0 {
			return err
		}
		if !inv.Flags.Changed("tail") && tail < 0 {
			tail = 10 // kubectl's default for a selector
		}
		if n, most := len(pods), inv.Flags.Int("max-log-requests"); inv.Flags.Bool("follow") && int64(n) > most {
			return fmt.Errorf("you are attempting to follow %d log streams, but maximum allowed concurrency is %d, use --max-log-requests to increase the limit", n, most)
		}
	} else {
		pod, err := inv.podForCommand(inv.Args[0], true)
		if err != nil {
			return err
		}
		pods = []*api.Pod{pod}
	}
	var streams []logStream
	for _, pod := range pods {
		containers, err := inv.logContainers(pod)
		if err != nil {
			return err
		}
		for _, c := range containers {
			streams = append(streams, logStream{pod, c})
		}
	}
	show := func(s logStream, text string) {
		if inv.Flags.Bool("prefix") {
			text = prefixLines(s.pod, s.container, text)
		}
		fmt.Fprint(inv.out(), text)
	}
	follow := inv.Flags.Bool("follow") && !inv.Flags.Bool("previous")
	seen := map[logStream]int{}
	for _, s := range streams {
		out, err := inv.Env.Logs(LogsRequest{
			Namespace: s.pod.Namespace, Pod: s.pod.Name, Container: s.container,
			Previous: inv.Flags.Bool("previous"), Timestamps: inv.Flags.Bool("timestamps"),
			TailLines: tail, SinceSeconds: int64(inv.Flags.Duration("since").Seconds()),
			LimitBytes: inv.Flags.Int("limit-bytes"), Follow: inv.Flags.Bool("follow"),
		})
		if err != nil {
			return err
		}
		show(s, out)
		if follow {
			seen[s] = len(logLines(inv, s))
		}
	}
	if follow {
		return inv.followLogs(streams, seen, show)
	}
	return nil
}

// logContainers are the containers whose logs a pod's part prints: all of
// them, the one named, or the default one.
func (inv *Invocation) logContainers(pod *api.Pod) ([]string, error) {
	var containers []string
	switch {
	case inv.Flags.Bool("all-containers"):
		for _, c := range pod.Spec.InitContainers {
			containers = append(containers, c.Name)
		}
		for _, c := range pod.Spec.Containers {
			containers = append(containers, c.Name)
		}
	case len(inv.Args) == 2:
		containers = []string{inv.Args[1]}
	default:
		c, err := inv.defaultContainer(pod)
		if err != nil {
			return nil, err
		}
		containers = []string{c}
	}
	for _, c := range containers {
		if !hasContainer(pod, c) {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", c, pod.Name))
		}
	}
	return containers, nil
}

// podsBySelector lists the namespace's pods matching -l (and
// --field-selector), saying so on stderr when there are none, as kubectl
// does. Upstream reads them in map order; here they come by name.
func (inv *Invocation) podsBySelector() ([]*api.Pod, error) {
	sel, fsel, err := inv.selectors()
	if err != nil {
		return nil, err
	}
	res, err := inv.resolveType("pods")
	if err != nil {
		return nil, err
	}
	ns, _ := inv.Namespace()
	objs, err := inv.list(res, ns, sel, fsel)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
	}
	pods := make([]*api.Pod, len(objs))
	for i, o := range objs {
		pods[i] = o.(*api.Pod)
	}
	return pods, nil
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
	pod, err := inv.podForCommand(args[0], false)
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
	// A terminal is only used with stdin attached, and only when stdin is
	// one (a live terminal; not a session file or a pipe).
	tty := inv.Flags.Bool("tty") && inv.Flags.Bool("stdin")
	if tty && !inv.Env.Interactive {
		tty = false
		if !inv.Flags.Bool("quiet") {
			fmt.Fprintln(inv.errOut(), "Unable to use a TTY - input is not a terminal or the right kind of file")
		}
	}
	code := inv.Env.Exec(ExecRequest{Namespace: pod.Namespace, Pod: pod.Name, Container: container, Command: command,
		Stdin: inv.Env.Stdin, Stdout: inv.out(), Stderr: inv.errOut(), TTY: tty})
	if code < 0 {
		return errExit
	}
	if code != 0 {
		fmt.Fprintf(inv.errOut(), "command terminated with exit code %d\n", code)
		return exitError{code}
	}
	return nil
}
