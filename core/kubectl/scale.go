package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
)

// runScale is `kubectl scale`: set spec.replicas through the workload's
// scale subresource, with the optional --current-replicas and
// --resource-version preconditions, and --timeout to wait for the new size.
func runScale(inv *Invocation) error {
	// cobra checks required flags before the command runs.
	if !inv.Flags.Changed("replicas") {
		return errors.New(`required flag(s) "replicas" not set`)
	}
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	replicas := inv.Flags.Int("replicas")
	if replicas < 0 {
		return errors.New("The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	current := inv.Flags.Int("current-replicas")
	if current < -1 {
		return errors.New("The --current-replicas must specify an integer of -1 or greater")
	}
	objs, _, errs, err := inv.loadLive(inv.Args, liveOptions{all: inv.Flags.Bool("all")})
	if err != nil {
		return err
	}
	rv := inv.Flags.String("resource-version")
	if rv != "" && len(objs) > 1 {
		return errors.New("cannot use --resource-version with multiple resources")
	}
	if len(objs) == 0 {
		if len(errs) > 0 {
			return fmt.Errorf("no objects passed to scale %s", aggregateText(errs))
		}
		return errors.New("no objects passed to scale")
	}
	for _, o := range objs {
		if inv.dryRun() == "client" {
			if err := inv.reportOp(o.res, o.obj, "scaled"); err != nil {
				return err
			}
			continue
		}
		if err := inv.scaleOne(o, replicas, current, rv); err != nil {
			return err
		}
		if inv.recording() {
			inv.recordChangeCause(o)
		}
		if err := inv.reportOp(o.res, o.obj, "scaled"); err != nil {
			return err
		}
	}
	if limit := inv.Flags.Duration("timeout"); limit > 0 && inv.dryRun() == "" {
		for _, o := range objs {
			if err := inv.waitForScale(o, int32(replicas), limit); err != nil {
				return err
			}
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

// scaleOne writes the new size: a merge patch of spec.replicas, or, with a
// precondition, a read-check-update of the scale.
func (inv *Invocation) scaleOne(o liveObject, replicas, current int64, rv string) error {
	c := inv.Env.Client
	if !o.res.Scale {
		return apierrors.NewNotFoundMessage()
	}
	if current != -1 || rv != "" {
		live, err := c.Get(o.res, o.namespace(), o.name())
		if err != nil {
			return err
		}
		size, _ := specReplicas(live)
		if current != -1 && int64(size) != current {
			return fmt.Errorf("Expected replicas to be %d, was %d", current, size)
		}
		if got := live.GetObjectMeta().ResourceVersion; rv != "" && got != rv {
			return fmt.Errorf("Expected resource version to be %s, was %s", rv, got)
		}
		obj := live.DeepCopyObject()
		setSpecReplicas(obj, int32(replicas))
		_, err = c.Update(o.res, o.namespace(), obj, apiserver.UpdateOptions{DryRun: inv.dryRun() == "server"})
		return err
	}
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	_, err := c.Patch(o.res, o.namespace(), o.name(), apiserver.MergePatchType, []byte(patch), apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
	return err
}

// waitForScale polls once a second until the workload reports the size it
// was asked for, as --timeout asks.
func (inv *Invocation) waitForScale(o liveObject, replicas int32, limit time.Duration) error {
	var waited time.Duration
	for {
		live, err := inv.Env.Client.Get(o.res, o.namespace(), o.name())
		if err != nil {
			return err
		}
		spec, status := specReplicas(live)
		if spec != replicas || status == replicas {
			return nil
		}
		if waited >= limit || !inv.advance(time.Second) {
			return fmt.Errorf("timed out waiting for %q to be synced", o.name())
		}
		waited += time.Second
	}
}

// recordChangeCause is --record on commands that change an object and then
// note the command line in kubernetes.io/change-cause (a best effort, as
// upstream's recorder: a failed patch is not reported).
func (inv *Invocation) recordChangeCause(o liveObject) {
	cause := inv.changeCause()
	if o.obj.GetObjectMeta().Annotations[changeCauseAnnotation] == cause {
		return
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]string{changeCauseAnnotation: cause}}})
	if err != nil {
		return
	}
	_, _ = inv.Env.Client.Patch(o.res, o.namespace(), o.name(), apiserver.MergePatchType, patch, apiserver.PatchOptions{})
}

// specReplicas reads spec.replicas (default 1) and status.replicas of any
// workload kind with a scale subresource.
func specReplicas(obj api.Object) (spec, status int32) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return 0, 0
	}
	v = v.Elem()
	spec = 1
	if s := v.FieldByName("Spec"); s.IsValid() {
		if r := s.FieldByName("Replicas"); r.IsValid() && r.Kind() == reflect.Pointer && !r.IsNil() {
			spec = int32(r.Elem().Int())
		}
	}
	if s := v.FieldByName("Status"); s.IsValid() {
		if r := s.FieldByName("Replicas"); r.IsValid() && r.Kind() == reflect.Int32 {
			status = int32(r.Int())
		}
	}
	return spec, status
}

func setSpecReplicas(obj api.Object, n int32) {
	r := reflect.ValueOf(obj).Elem().FieldByName("Spec").FieldByName("Replicas")
	if r.IsValid() && r.CanSet() {
		r.Set(reflect.ValueOf(&n))
	}
}

// aggregateText is utilerrors' aggregate message: one error as is, more in
// brackets.
func aggregateText(errs []error) string {
	if len(errs) == 1 {
		return errs[0].Error()
	}
	s := "["
	for i, e := range errs {
		if i > 0 {
			s += ", "
		}
		s += e.Error()
	}
	return s + "]"
}
