package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/fields"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// evictor is a client that serves pods/eviction (the API's
// disruption-budget-aware delete). drain evicts through it when the client
// has it, and deletes pods otherwise, as upstream does on a server without
// the subresource.
type evictor interface {
	Evict(namespace string, ev *api.Eviction) error
}

// Why drain refuses or warns about a pod (upstream's filter messages).
const (
	daemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedFatal      = "cannot delete Pods that declare no controller (use --force to override)"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

// drainIdleEnd bounds how long a non-interactive drain with no --timeout
// waits for pods to go (real kubectl would wait forever).
const drainIdleEnd = time.Hour

// podVerdict is what the filters decided for one pod on the node.
type podVerdict struct {
	pod     *api.Pod
	delete  bool
	warning string // a warning to print, when delete or skipped
	fatal   string // why the pod blocks the drain
}

// runDrain is `kubectl drain`: cordon the nodes, then evict (or delete)
// their pods and wait for them to go.
func runDrain(inv *Invocation) error {
	nodes, err := inv.drainNodes()
	if err != nil {
		return err
	}
	if ps := inv.Flags.String("pod-selector"); ps != "" {
		if _, err := labels.Parse(ps); err != nil {
			return errors.New("--pod-selector=<pod_selector> must be a valid label selector")
		}
	}
	inv.cordonNodes(nodes, true)
	var fatal []error
	var remaining []string
	for _, n := range nodes {
		if err := inv.drainNode(n.name()); err != nil {
			fmt.Fprintf(inv.errOut(), "error: unable to drain node %q due to error: %s, continuing command...\n", n.name(), err)
			fatal = append(fatal, err)
			remaining = append(remaining, n.name())
			continue
		}
		fmt.Fprintln(inv.out(), inv.operationMessage(n.res, n.name(), "drained"))
	}
	if len(remaining) > 0 {
		fmt.Fprintf(inv.errOut(), "There are pending nodes to be drained:\n")
		for _, n := range remaining {
			fmt.Fprintf(inv.errOut(), " %s\n", n)
		}
	}
	if len(fatal) == 1 {
		// One node's errors end the command one per line.
		if de, ok := fatal[0].(drainError); ok {
			return aggregate(de)
		}
	}
	if len(fatal) > 0 {
		return aggregate(fatal)
	}
	return nil
}

// drainError is an aggregate of filter or eviction errors: listed one per
// line when it ends the command, bracketed inside other messages.
type drainError []error

func (e drainError) Error() string { return aggregateText(e) }

// drainNode removes the pods of one node.
func (inv *Invocation) drainNode(node string) error {
	verdicts, err := inv.podsForDeletion(node)
	if err != nil {
		return err
	}
	if errs := drainErrors(verdicts); len(errs) > 0 {
		return drainError(errs)
	}
	if w := drainWarnings(verdicts); w != "" {
		fmt.Fprintf(inv.errOut(), "Warning: %s\n", w)
	}
	var pods []*api.Pod
	for _, v := range verdicts {
		if v.delete {
			pods = append(pods, v.pod)
		}
	}
	if inv.dryRun() == "client" {
		for _, p := range pods {
			fmt.Fprintf(inv.out(), "evicting pod %s/%s (dry run)\n", p.Namespace, p.Name)
		}
		return nil
	}
	if err := inv.removePods(pods); err != nil {
		if left, lerr := inv.podsForDeletion(node); lerr == nil {
			var pending []*api.Pod
			for _, v := range left {
				if v.delete {
					pending = append(pending, v.pod)
				}
			}
			if len(pending) > 0 {
				fmt.Fprintf(inv.errOut(), "There are pending pods in node %q when an error occurred: %v\n", node, err)
				for _, p := range pending {
					fmt.Fprintf(inv.errOut(), "pod/%s\n", p.Name)
				}
			}
		}
		return err
	}
	return nil
}

// podsForDeletion lists the node's pods (matching --pod-selector) and runs
// upstream's filters over each, in order, stopping at the first that keeps
// the pod.
func (inv *Invocation) podsForDeletion(node string) ([]podVerdict, error) {
	c := inv.Env.Client
	sel, err := labels.Parse(inv.Flags.String("pod-selector"))
	if err != nil {
		return nil, err
	}
	fsel, _ := fields.Parse("spec.nodeName=" + node)
	podsRes := client.ResourceFor[*api.Pod](c)
	objs, err := inv.list(podsRes, "", sel, fsel)
	if err != nil {
		return nil, err
	}
	var out []podVerdict
	for _, o := range objs {
		out = append(out, inv.filterPod(o.(*api.Pod)))
	}
	return out, nil
}

func (inv *Invocation) filterPod(pod *api.Pod) podVerdict {
	v := podVerdict{pod: pod, delete: true}
	finished := pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed
	ref := pod.GetControllerOf()
	// skip pods deleted long ago (--skip-wait-for-delete-timeout)
	if skip := inv.Flags.Int("skip-wait-for-delete-timeout"); skip > 0 && pod.DeletionTimestamp != nil &&
		int64(inv.now().Sub(pod.DeletionTimestamp.Time).Seconds()) > skip {
		return podVerdict{pod: pod}
	}
	if ref != nil && ref.Kind == "DaemonSet" && !finished {
		_, err := client.Get[*api.DaemonSet](inv.Env.Client, pod.Namespace, ref.Name)
		switch {
		case err != nil && apierrors.IsNotFound(err) && inv.Flags.Bool("force"):
			v.warning = messageOf(err)
		case err != nil:
			return podVerdict{pod: pod, fatal: messageOf(err)}
		case !inv.Flags.Bool("ignore-daemonsets"):
			return podVerdict{pod: pod, fatal: daemonSetFatal}
		default:
			return podVerdict{pod: pod, warning: daemonSetWarning}
		}
	}
	if _, mirror := pod.Annotations[api.MirrorPodAnnotation]; mirror {
		return podVerdict{pod: pod}
	}
	if hasEmptyDir(pod) && !finished {
		if !inv.Flags.Bool("delete-emptydir-data") {
			return podVerdict{pod: pod, fatal: localStorageFatal}
		}
		v.warning = localStorageWarning
	}
	if !finished && ref == nil {
		if !inv.Flags.Bool("force") {
			return podVerdict{pod: pod, fatal: unmanagedFatal}
		}
		v.warning = unmanagedWarning
	}
	return v
}

func hasEmptyDir(pod *api.Pod) bool {
	for _, v := range pod.Spec.Volumes {
		if v.EmptyDir != nil {
			return true
		}
	}
	return false
}

// drainErrors groups the blocked pods by reason: "cannot delete REASON:
// ns/a, ns/b" (in the order the reasons first appear; upstream's map order
// is random).
func drainErrors(vs []podVerdict) []error {
	var errs []error
	for _, g := range groupVerdicts(vs, func(v podVerdict) string { return v.fatal }) {
		errs = append(errs, fmt.Errorf("cannot delete %s: %s", g.reason, strings.Join(g.pods, ", ")))
	}
	return errs
}

// drainWarnings is "REASON: ns/a, ns/b; REASON2: …".
func drainWarnings(vs []podVerdict) string {
	var parts []string
	for _, g := range groupVerdicts(vs, func(v podVerdict) string {
		if v.fatal != "" {
			return ""
		}
		return v.warning
	}) {
		parts = append(parts, g.reason+": "+strings.Join(g.pods, ", "))
	}
	return strings.Join(parts, "; ")
}

type verdictGroup struct {
	reason string
	pods   []string
}

func groupVerdicts(vs []podVerdict, reason func(podVerdict) string) []verdictGroup {
	var out []verdictGroup
	for _, v := range vs {
		r := reason(v)
		if r == "" {
			continue
		}
		name := v.pod.Namespace + "/" + v.pod.Name
		found := false
		for i := range out {
			if out[i].reason == r {
				out[i].pods = append(out[i].pods, name)
				found = true
			}
		}
		if !found {
			out = append(out, verdictGroup{reason: r, pods: []string{name}})
		}
	}
	return out
}

// removePods evicts (or deletes) the pods and waits, printing each as it
// goes.
func (inv *Invocation) removePods(pods []*api.Pod) error {
	if len(pods) == 0 {
		return nil
	}
	ev, canEvict := inv.Env.Client.(evictor)
	useEviction := canEvict && !inv.Flags.Bool("disable-eviction")
	limit := inv.Flags.Duration("timeout")
	c := inv.Env.Client
	podsRes := client.ResourceFor[*api.Pod](c)
	var errs []error
	var waiting []*api.Pod
	if useEviction {
		for _, p := range pods {
			suffix := ""
			if inv.dryRun() == "server" {
				suffix = " (server dry run)"
			}
			fmt.Fprintf(inv.out(), "evicting pod %s/%s%s\n", p.Namespace, p.Name, suffix)
		}
		for _, p := range pods {
			gone, err := inv.evictPod(ev, p, limit)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !gone && inv.dryRun() == "" {
				waiting = append(waiting, p)
			}
		}
	} else {
		for _, p := range pods {
			opts := api.DeleteOptions{}
			if g := inv.Flags.Int("grace-period"); g >= 0 {
				opts.GracePeriodSeconds = &g
			}
			if inv.dryRun() == "server" {
				opts.DryRun = []string{"All"}
			}
			if _, err := c.Delete(podsRes, p.Namespace, p.Name, opts); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
		if inv.dryRun() == "" {
			waiting = pods
		}
	}
	if err := inv.waitForPodsGone(waiting, useEviction, limit); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return drainError(errs)
	}
	return nil
}

// evictPod posts one eviction, retrying every 5 s while a disruption
// budget refuses it; gone reports the pod was already gone.
func (inv *Invocation) evictPod(ev evictor, p *api.Pod, limit time.Duration) (gone bool, err error) {
	var waited time.Duration
	for {
		e := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		if g := inv.Flags.Int("grace-period"); g >= 0 {
			e.DeleteOptions = &api.DeleteOptions{GracePeriodSeconds: &g}
		}
		if inv.dryRun() == "server" {
			if e.DeleteOptions == nil {
				e.DeleteOptions = &api.DeleteOptions{}
			}
			e.DeleteOptions.DryRun = []string{"All"}
		}
		err := ev.Evict(p.Namespace, e)
		switch {
		case err == nil:
			return false, nil
		case apierrors.IsNotFound(err):
			return true, nil
		case apierrors.IsTooManyRequests(err):
			fmt.Fprintf(inv.errOut(), "error when evicting pods/%q -n %q (will retry after 5s): %v\n", p.Name, p.Namespace, messageOf(err))
			if limit > 0 && waited >= limit {
				return false, fmt.Errorf("error when evicting pods/%q -n %q: global timeout reached: %v", p.Name, p.Namespace, limit)
			}
			if !inv.advance(5 * time.Second) {
				return false, fmt.Errorf("error when evicting pods/%q -n %q: global timeout reached: %v", p.Name, p.Namespace, limit)
			}
			waited += 5 * time.Second
		default:
			return false, fmt.Errorf("error when evicting pods/%q -n %q: %v", p.Name, p.Namespace, messageOf(err))
		}
	}
}

// waitForPodsGone polls once a second until every pod is gone (or
// replaced by one with another uid), printing "pod/x evicted" or
// "pod/x deleted" for each.
func (inv *Invocation) waitForPodsGone(pods []*api.Pod, evicted bool, limit time.Duration) error {
	verb := "deleted"
	if evicted {
		verb = "evicted"
	}
	podsRes := client.ResourceFor[*api.Pod](inv.Env.Client)
	if limit <= 0 && !inv.Env.Interactive {
		limit = drainIdleEnd
	}
	var waited time.Duration
	for {
		var pending []*api.Pod
		for _, p := range pods {
			cur, err := inv.Env.Client.Get(podsRes, p.Namespace, p.Name)
			if (err != nil && apierrors.IsNotFound(err)) || (err == nil && cur.GetObjectMeta().UID != p.UID) {
				fmt.Fprintln(inv.out(), inv.operationMessage(podsRes, p.Name, verb))
				continue
			}
			if err != nil {
				return err
			}
			pending = append(pending, p)
		}
		pods = pending
		if len(pods) == 0 {
			return nil
		}
		if limit > 0 && waited >= limit {
			if evicted {
				var errs []string
				for _, p := range pods {
					errs = append(errs, fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: context deadline exceeded", p.Name, p.Namespace))
				}
				sort.Strings(errs)
				return errors.New(strings.Join(errs, ", "))
			}
			return errors.New("context deadline exceeded")
		}
		if !inv.advance(time.Second) {
			return errors.New("context canceled")
		}
		waited += time.Second
	}
}
