package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	deployutil "kubeplay/core/controller/deployment/util"
)

// Rollback outcomes as kubectl prints them after the object's name.
const (
	rollbackSuccess = "rolled back"
	rollbackSkipped = "skipped rollback"
)

// runRolloutUndo is `kubectl rollout undo`: put back the pod template of
// the previous revision, or of --to-revision.
func runRolloutUndo(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	if len(inv.Args) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		return errors.New("required resource not specified")
	}
	objs, errs, err := inv.rolloutObjects()
	if err != nil {
		return err
	}
	to := inv.Flags.Int("to-revision")
	for _, o := range objs {
		var result string
		var err error
		switch obj := o.obj.(type) {
		case *api.Deployment:
			result, err = inv.undoDeployment(o, obj, to)
		case *api.DaemonSet, *api.StatefulSet:
			result, err = inv.undoFromControllerRevision(o, to)
		default:
			err = fmt.Errorf("no rollbacker has been implemented for %q", groupKind(o.res))
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := inv.reportOp(o.res, o.obj, result); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

func revisionNotFound(r int64) error {
	return fmt.Errorf("unable to find specified revision %v in history", r)
}

// undoDeployment is the DeploymentRollbacker: find the ReplicaSet of the
// revision and write its template (without pod-template-hash) and its
// annotations back into the Deployment with a JSON patch.
func (inv *Invocation) undoDeployment(o liveObject, d *api.Deployment, to int64) (string, error) {
	if to < 0 {
		return "", revisionNotFound(to)
	}
	rss, err := ownedReplicaSets(inv.Env.Client, d)
	if err != nil {
		return "", err
	}
	target, err := deploymentRevision(d, rss, to)
	if err != nil {
		return "", err
	}
	if inv.dryRun() == "client" {
		return rolloutTemplateText(&target.Spec.Template), nil
	}
	if d.Spec.Paused {
		return "", errors.New("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	if deployutil.EqualIgnoreHash(&target.Spec.Template, &d.Spec.Template) {
		return fmt.Sprintf("%s (current template already matches revision %d)", rollbackSkipped, to), nil
	}
	template := target.Spec.Template.DeepCopy()
	delete(template.Labels, api.DefaultDeploymentUniqueLabelKey)
	annotations := map[string]string{}
	for k, v := range d.Annotations {
		if rollbackKeepsAnnotation(k) {
			annotations[k] = v
		}
	}
	for k, v := range target.Annotations {
		if !rollbackKeepsAnnotation(k) {
			annotations[k] = v
		}
	}
	p, err := json.Marshal([]any{
		map[string]any{"op": "replace", "path": "/spec/template", "value": template},
		map[string]any{"op": "replace", "path": "/metadata/annotations", "value": annotations},
	})
	if err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", to, err)
	}
	_, err = inv.Env.Client.Patch(o.res, o.namespace(), o.name(), apiserver.JSONPatchType, p, apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
	if err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", to, messageOf(err))
	}
	return rollbackSuccess, nil
}

// rollbackKeepsAnnotation: annotations a rollback keeps from the
// Deployment instead of taking them from the ReplicaSet.
func rollbackKeepsAnnotation(k string) bool {
	switch k {
	case lastAppliedAnnotation, api.RevisionAnnotation, api.RevisionHistoryAnnotation,
		api.DesiredReplicasAnnotation, api.MaxReplicasAnnotation, api.DeprecatedRollbackTo:
		return true
	}
	return false
}

// deploymentRevision is the ReplicaSet of revision to, or with to == 0
// the one before the newest.
func deploymentRevision(d *api.Deployment, rss []*api.ReplicaSet, to int64) (*api.ReplicaSet, error) {
	var latest, previous *api.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range rss {
		v, err := deployutil.Revision(rs)
		if err != nil {
			continue
		}
		if to > 0 {
			if v == to {
				return rs, nil
			}
			continue
		}
		if latestRev < v {
			previousRev, previous = latestRev, latest
			latestRev, latest = v, rs
		} else if previousRev < v {
			previousRev, previous = v, rs
		}
	}
	if to > 0 {
		return nil, revisionNotFound(to)
	}
	if previous == nil {
		return nil, fmt.Errorf("no rollout history found for deployment %q", d.Name)
	}
	return previous, nil
}

// undoFromControllerRevision is the DaemonSet and StatefulSet
// rollbacker: a ControllerRevision's data is the strategic merge patch
// that restores it.
func (inv *Invocation) undoFromControllerRevision(o liveObject, to int64) (string, error) {
	if to < 0 {
		return "", revisionNotFound(to)
	}
	var selector *api.LabelSelector
	switch obj := o.obj.(type) {
	case *api.DaemonSet:
		selector = obj.Spec.Selector
	case *api.StatefulSet:
		selector = obj.Spec.Selector
	}
	history, err := ownedRevisions(inv.Env.Client, o.obj, selector)
	if err != nil {
		return "", err
	}
	if to == 0 && len(history) <= 1 {
		return "", errors.New("no last revision to roll back to")
	}
	var target *api.ControllerRevision
	if to == 0 {
		target = history[len(history)-2]
	} else {
		for _, h := range history {
			if h.Revision == to {
				target = h
			}
		}
	}
	if target == nil {
		return "", revisionNotFound(to)
	}
	if inv.dryRun() == "client" {
		applied, err := applyRevision(o.obj, target)
		if err != nil {
			return "", err
		}
		t, _ := templateOf(applied)
		return "will roll back to " + rolloutTemplateText(t), nil
	}
	if templateMatchesRevision(o.obj, target) {
		return fmt.Sprintf("%s (current template already matches revision %d)", rollbackSkipped, to), nil
	}
	data := []byte(target.Data.Raw)
	if _, err := inv.Env.Client.Patch(o.res, o.namespace(), o.name(), apiserver.StrategicMergePatchType, data, apiserver.PatchOptions{DryRun: inv.dryRun() == "server"}); err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", to, messageOf(err))
	}
	return rollbackSuccess, nil
}

// templateMatchesRevision compares the object's template patch with the
// revision's data, as JSON values (upstream compares bytes its own encoder
// wrote).
func templateMatchesRevision(obj api.Object, cr *api.ControllerRevision) bool {
	t, ok := templateOf(obj)
	if !ok {
		return false
	}
	cur, err := json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
	if err != nil {
		return false
	}
	var a, b map[string]any
	if json.Unmarshal(cur, &a) != nil || json.Unmarshal(cr.Data.Raw, &b) != nil {
		return false
	}
	if tmpl, ok := a["spec"].(map[string]any)["template"].(map[string]any); ok {
		tmpl["$patch"] = "replace"
	}
	return reflect.DeepEqual(a, b)
}
