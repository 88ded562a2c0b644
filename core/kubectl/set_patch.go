package kubectl

import (
	"encoding/json"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/apiserver/patch"
)

// mutationPatch is how kubectl's set and rollout commands change an
// object: mutate a copy, then send the strategic merge patch from the object
// as read to the result, so a change made meanwhile by someone else to
// another field survives. An empty patch ("{}") means mutate changed nothing.
func mutationPatch(o liveObject, mutate func(api.Object) error) ([]byte, error) {
	before, err := json.Marshal(o.obj)
	if err != nil {
		return nil, err
	}
	if err := mutate(o.obj); err != nil {
		return nil, err
	}
	after, err := json.Marshal(o.obj)
	if err != nil {
		return nil, err
	}
	return patch.CreateTwoWayMergePatch(before, after, patch.KindSchema(o.res.Kind))
}

// emptyPatch reports a patch that would change nothing.
func emptyPatch(p []byte) bool { return len(p) == 0 || string(p) == "{}" }

// sendPatch sends a strategic merge patch for o, honouring --dry-run=server.
func (inv *Invocation) sendPatch(o liveObject, p []byte) (api.Object, error) {
	return inv.Env.Client.Patch(o.res, o.namespace(), o.name(), apiserver.StrategicMergePatchType, p,
		apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
}

// podSpecOf finds the pod spec inside the kinds that carry one (a Pod, a
// workload's template, a CronJob's job template), as kubectl's
// UpdatePodSpecForObject does.
func podSpecOf(obj api.Object) (*api.PodSpec, bool) {
	switch o := obj.(type) {
	case *api.Pod:
		return &o.Spec, true
	case *api.Deployment:
		return &o.Spec.Template.Spec, true
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec, true
	case *api.StatefulSet:
		return &o.Spec.Template.Spec, true
	case *api.DaemonSet:
		return &o.Spec.Template.Spec, true
	case *api.Job:
		return &o.Spec.Template.Spec, true
	case *api.CronJob:
		return &o.Spec.JobTemplate.Spec.Template.Spec, true
	}
	return nil, false
}

// notPodTemplateError is UpdatePodSpecForObject's refusal; %T of the
// upstream typed object reads "*v1.Service".
type notPodTemplateError struct{ kind string }

func (e notPodTemplateError) Error() string {
	return "the object is not a pod or does not have a pod template: *v1." + e.kind
}
