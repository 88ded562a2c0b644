package kubectl

import (
	"errors"
	"fmt"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	deployutil "kubeplay/core/controller/deployment/util"
)

// statusIdleEnd ends a non-interactive `rollout status` that saw no change
// for this long of virtual time: a session cannot press Ctrl-C, and a
// rollout that moves at all reports within the default progress deadline.
const statusIdleEnd = 11 * time.Minute

// errWaitTimeout is apimachinery's wait.ErrWaitTimeout.
var errWaitTimeout = errors.New("timed out waiting for the condition")

// runRolloutStatus is `kubectl rollout status`: print the rollout's state
// on every change of the object until it is done (or once, with
// --watch=false).
func runRolloutStatus(inv *Invocation) error {
	if len(inv.Args) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		return errors.New("required resource not specified")
	}
	revision := inv.Flags.Int("revision")
	if revision < 0 {
		return fmt.Errorf("revision must be a positive integer: %d", revision)
	}
	objs, errs, err := inv.rolloutObjects()
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	if len(objs) == 0 {
		ns, _ := inv.Namespace()
		fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
		return nil
	}
	for _, o := range objs {
		switch o.obj.(type) {
		case *api.Deployment, *api.DaemonSet, *api.StatefulSet:
		default:
			return fmt.Errorf("no status viewer has been implemented for %s", groupKind(o.res))
		}
		if err := inv.watchRollout(o, revision); err != nil {
			return err
		}
	}
	return nil
}

// watchRollout follows one object as UntilWithSync does: its current
// state first, then every change, while virtual time passes.
func (inv *Invocation) watchRollout(o liveObject, revision int64) error {
	name := o.name()
	var pending []apiserver.WatchEvent
	stop, err := inv.Env.Client.Watch(o.res, o.namespace(), apiserver.ListOptions{
		Filter: func(obj api.Object) bool { return obj.GetObjectMeta().Name == name },
	}, func(ev apiserver.WatchEvent) { pending = append(pending, ev) })
	if err != nil {
		return err
	}
	defer stop()
	timeout := inv.Flags.Duration("timeout")
	var waited, idle time.Duration
	for {
		for len(pending) > 0 {
			ev := pending[0]
			pending = pending[1:]
			if ev.Type == apiserver.Deleted {
				return errors.New("object has been deleted")
			}
			msg, done, err := rolloutStatus(ev.Object, revision)
			if err != nil {
				return err
			}
			fmt.Fprint(inv.out(), msg)
			if done || !inv.Flags.Bool("watch") {
				return nil
			}
			idle = 0
		}
		if timeout > 0 && waited >= timeout {
			return errWaitTimeout
		}
		if !inv.Env.Interactive && idle >= statusIdleEnd {
			return nil
		}
		step := time.Second
		if timeout > 0 && timeout-waited < step {
			step = timeout - waited
		}
		if !inv.advance(step) {
			return nil
		}
		waited += step
		idle += step
	}
}

// rolloutStatus is kubectl's StatusViewer for the three kinds that roll
// out: a message, and whether the rollout is done.
func rolloutStatus(obj api.Object, revision int64) (string, bool, error) {
	switch o := obj.(type) {
	case *api.Deployment:
		return deploymentStatus(o, revision)
	case *api.DaemonSet:
		return daemonSetStatus(o)
	case *api.StatefulSet:
		return statefulSetStatus(o)
	}
	return "", false, fmt.Errorf("no status viewer has been implemented for %s", obj.GetTypeMeta().Kind)
}

func deploymentStatus(d *api.Deployment, revision int64) (string, bool, error) {
	if revision > 0 {
		current, err := deployutil.Revision(d)
		if err != nil {
			return "", false, fmt.Errorf("cannot get the revision of deployment %q: %v", d.Name, err)
		}
		if revision != current {
			return "", false, fmt.Errorf("desired revision (%d) is different from the running revision (%d)", revision, current)
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	if c := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing); c != nil && c.Reason == deployutil.TimedOutReason {
		return "", false, fmt.Errorf("deployment %q exceeded its progress deadline", d.Name)
	}
	s := d.Status
	if d.Spec.Replicas != nil && s.UpdatedReplicas < *d.Spec.Replicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n", d.Name, s.UpdatedReplicas, *d.Spec.Replicas), false, nil
	}
	if s.Replicas > s.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n", d.Name, s.Replicas-s.UpdatedReplicas), false, nil
	}
	if s.AvailableReplicas < s.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n", d.Name, s.AvailableReplicas, s.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}

func daemonSetStatus(ds *api.DaemonSet) (string, bool, error) {
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
		return "", true, errors.New("rollout status is only available for RollingUpdate strategy type")
	}
	if ds.Generation > ds.Status.ObservedGeneration {
		return "Waiting for daemon set spec update to be observed...\n", false, nil
	}
	s := ds.Status
	if s.UpdatedNumberScheduled < s.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", ds.Name, s.UpdatedNumberScheduled, s.DesiredNumberScheduled), false, nil
	}
	if s.NumberAvailable < s.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", ds.Name, s.NumberAvailable, s.DesiredNumberScheduled), false, nil
	}
	return fmt.Sprintf("daemon set %q successfully rolled out\n", ds.Name), true, nil
}

func statefulSetStatus(sts *api.StatefulSet) (string, bool, error) {
	if sts.Spec.UpdateStrategy.Type != api.RollingUpdateStatefulSetStrategyType {
		return "", true, errors.New("rollout status is only available for RollingUpdate strategy type")
	}
	s := sts.Status
	if s.ObservedGeneration == 0 || sts.Generation > s.ObservedGeneration {
		return "Waiting for statefulset spec update to be observed...\n", false, nil
	}
	if sts.Spec.Replicas != nil && s.ReadyReplicas < *sts.Spec.Replicas {
		return fmt.Sprintf("Waiting for %d pods to be ready...\n", *sts.Spec.Replicas-s.ReadyReplicas), false, nil
	}
	if ru := sts.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if sts.Spec.Replicas != nil && ru.Partition != nil {
			if want := *sts.Spec.Replicas - *ru.Partition; s.UpdatedReplicas < want {
				return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n", s.UpdatedReplicas, want), false, nil
			}
		}
		return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", s.UpdatedReplicas), true, nil
	}
	if s.UpdateRevision != s.CurrentRevision {
		return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n", s.UpdatedReplicas, s.UpdateRevision), false, nil
	}
	return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", s.CurrentReplicas, s.CurrentRevision), true, nil
}
