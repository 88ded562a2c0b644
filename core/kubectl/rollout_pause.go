package kubectl

import (
	"errors"
	"fmt"

	"kubeplay/core/api"
)

// runRolloutPause is `kubectl rollout pause`: set spec.paused on Deployments.
func runRolloutPause(inv *Invocation) error {
	return inv.patchRollout("paused", "already paused", func(obj api.Object) error {
		d, ok := obj.(*api.Deployment)
		if !ok {
			return errors.New("pausing is not supported")
		}
		if d.Spec.Paused {
			return errors.New("is already paused")
		}
		d.Spec.Paused = true
		return nil
	})
}

// runRolloutResume is `kubectl rollout resume`: clear spec.paused.
func runRolloutResume(inv *Invocation) error {
	return inv.patchRollout("resumed", "already resumed", func(obj api.Object) error {
		d, ok := obj.(*api.Deployment)
		if !ok {
			return errors.New("resuming is not supported")
		}
		if !d.Spec.Paused {
			return errors.New("is not paused")
		}
		d.Spec.Paused = false
		return nil
	})
}

// patchRollout is the shape pause, resume and restart share upstream: a
// mutation per object turned into a strategic merge patch; a refused
// mutation is reported as `error: deployments.apps "x" is already paused`
// and the others still go ahead.
func (inv *Invocation) patchRollout(done, unchanged string, mutate func(api.Object) error) error {
	objs, errs, err := inv.rolloutObjects()
	if err != nil {
		return err
	}
	if len(objs) == 0 && len(errs) == 0 {
		ns, _ := inv.Namespace()
		fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
		return nil
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	for _, o := range objs {
		p, err := mutationPatch(o, mutate)
		if err != nil {
			errs = append(errs, fmt.Errorf("error: %s %q %v", resourceWithGroup(o.res), o.name(), err))
			continue
		}
		if emptyPatch(p) {
			if unchanged == "" {
				errs = append(errs, fmt.Errorf("failed to create patch for %v: if restart has already been triggered within the past second, please wait before attempting to trigger another", o.name()))
				continue
			}
			if err := inv.reportOp(o.res, o.obj, unchanged); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		obj, err := inv.sendPatch(o, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("failed to patch: %v", messageOf(err)))
			continue
		}
		if err := inv.reportOp(o.res, obj, done); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}
