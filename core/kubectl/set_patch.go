package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"

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

// templateChange is one run of a set command over pod templates.
type templateChange struct {
	// mutate changes one object's pod spec; an error skips the object and is
	// reported as "error: RESOURCE/NAME ERR".
	mutate func(o liveObject, spec *api.PodSpec) error
	// done is the message for a changed object ("image updated"); failed
	// prefixes a rejected patch's message, worded per command upstream.
	done, failed string
	// local is --local (print, never send); listOnly is set env --list
	// (mutate printed everything, nothing is sent).
	local, listOnly bool
	// noted are errors mutate reported without skipping the object; they
	// come first in the final report.
	noted []error
}

// errLeaveAlone from a templateChange's mutate leaves the object out
// without an error (set resources when no container matched).
var errLeaveAlone = errors.New("leave the object alone")

// changePodTemplates runs a set command as upstream's set commands run:
// every object is changed and its patch computed before any is sent, an
// object whose patch is empty is left out silently, a client dry run or
// --local prints instead of sending, and the errors of all objects are
// reported together at the end.
func (inv *Invocation) changePodTemplates(objs []liveObject, c *templateChange) error {
	patches := make([][]byte, len(objs))
	failures := make([]error, len(objs))
	for i, o := range objs {
		patches[i], failures[i] = mutationPatch(o, func(obj api.Object) error {
			spec, ok := podSpecOf(obj)
			if !ok {
				return notPodTemplateError{o.res.Kind}
			}
			if err := c.mutate(o, spec); err != nil {
				return err
			}
			if inv.recording() {
				setAnnotation(obj, changeCauseAnnotation, inv.changeCause())
			}
			return nil
		})
	}
	if c.listOnly {
		return nil
	}
	allErrs := c.noted
	for i, o := range objs {
		switch {
		case failures[i] == errLeaveAlone:
			continue
		case failures[i] != nil:
			allErrs = append(allErrs, fmt.Errorf("error: %s/%s %v\n", o.res.Name, o.name(), failures[i]))
			continue
		case emptyPatch(patches[i]):
			continue
		case c.local || inv.dryRun() == "client":
			allErrs = appendErr(allErrs, inv.reportOp(o.res, o.obj, c.done))
			continue
		}
		obj, err := inv.sendPatch(o, patches[i])
		if err != nil {
			allErrs = append(allErrs, fmt.Errorf("%s%v", c.failed, messageOf(err)))
			continue
		}
		allErrs = appendErr(allErrs, inv.reportOp(o.res, obj, c.done))
	}
	if len(allErrs) > 0 {
		return aggregate(allErrs)
	}
	return nil
}

// setTargets are the objects a set command changes: with --local, the -f
// manifests as read; else the live objects that arguments, -f, -l and
// --all name.
func (inv *Invocation) setTargets(resources []string, local, all bool) ([]liveObject, error) {
	if local {
		if len(inv.Flags.Strings("filename")) == 0 {
			return nil, errNoResources
		}
		infos, errs := inv.manifests()
		if len(errs) > 0 {
			return nil, aggregate(errs)
		}
		objs := make([]liveObject, len(infos))
		for i, in := range infos {
			// Without a server kubectl cannot tell a namespaced kind, so a
			// manifest keeps the namespace it was written with.
			in.Object.GetObjectMeta().Namespace = manifestNamespace(in.Raw)
			objs[i] = liveObject{res: in.Resource, obj: in.Object}
		}
		return objs, nil
	}
	objs, _, errs, err := inv.loadLive(resources, liveOptions{all: all})
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, aggregate(errs)
	}
	return objs, nil
}
