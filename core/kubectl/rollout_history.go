package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"kubeplay/core/api"
	"kubeplay/core/apiserver/patch"
	deployutil "kubeplay/core/controller/deployment/util"
)

// revisionEntry is one revision of a rollout: its pod template and the
// change cause recorded with it; object is what -o prints for it.
type revisionEntry struct {
	revision int64
	template *api.PodTemplateSpec
	cause    string
	object   api.Object
}

// runRolloutHistory is `kubectl rollout history`: the revisions with their
// change causes, or one revision's pod template with --revision.
func runRolloutHistory(inv *Invocation) error {
	if len(inv.Args) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		return errors.New("required resource not specified")
	}
	revision := inv.Flags.Int("revision")
	if revision < 0 {
		return fmt.Errorf("revision must be a positive integer: %d", revision)
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	objs, errs, err := inv.rolloutObjects()
	if err != nil {
		return err
	}
	for _, o := range objs {
		entries, err := inv.revisionHistory(o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if f := inv.outputFormat(); f != "" {
			inv.printRevisionObjects(f, entries, revision)
			continue
		}
		text, err := historyText(entries, revision)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		with := ""
		if revision > 0 {
			with = fmt.Sprintf("with revision #%d", revision)
		}
		fmt.Fprintf(inv.out(), "%s/%s %s\n%s\n", kindName(o.res), o.name(), with, text)
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

// printRevisionObjects is history with -o: the ReplicaSets (or the object
// as each ControllerRevision would restore it), oldest first.
func (inv *Invocation) printRevisionObjects(format string, entries []revisionEntry, revision int64) {
	for _, e := range entries {
		if revision > 0 && e.revision != revision {
			continue
		}
		res, ok := inv.Env.Client.Registry().ForKind(e.object.GetTypeMeta().APIVersion, e.object.GetTypeMeta().Kind)
		if !ok {
			continue
		}
		printObject(inv.out(), format, res, e.object)
	}
}

// historyText is the REVISION / CHANGE-CAUSE table, or one revision's
// template.
func historyText(entries []revisionEntry, revision int64) (string, error) {
	if len(entries) == 0 {
		return "No rollout history found.", nil
	}
	if revision > 0 {
		for _, e := range entries {
			if e.revision == revision {
				return rolloutTemplateText(e.template), nil
			}
		}
		return "", errors.New("unable to find the specified revision")
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "REVISION\tCHANGE-CAUSE\n")
	for _, e := range entries {
		cause := e.cause
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(tw, "%d\t%s\n", e.revision, cause)
	}
	tw.Flush()
	return b.String(), nil
}

// revisionHistory reads an object's revisions, in revision order (a later
// duplicate replacing an earlier one, as upstream's map does).
func (inv *Invocation) revisionHistory(o liveObject) ([]revisionEntry, error) {
	c := inv.Env.Client
	var entries []revisionEntry
	switch obj := o.obj.(type) {
	case *api.Deployment:
		rss, err := ownedReplicaSets(c, obj)
		if err != nil {
			return nil, err
		}
		for _, rs := range rss {
			v, err := deployutil.Revision(rs)
			if err != nil {
				continue
			}
			t := rs.Spec.Template.DeepCopy()
			cause := rs.Annotations[changeCauseAnnotation]
			if t.Annotations == nil {
				t.Annotations = map[string]string{}
			}
			if cause != "" {
				t.Annotations[changeCauseAnnotation] = cause
			}
			entries = append(entries, revisionEntry{revision: v, template: t, cause: cause, object: rs})
		}
	case *api.DaemonSet, *api.StatefulSet:
		var selector *api.LabelSelector
		if ds, ok := obj.(*api.DaemonSet); ok {
			selector = ds.Spec.Selector
		} else {
			selector = obj.(*api.StatefulSet).Spec.Selector
		}
		crs, err := ownedRevisions(c, o.obj, selector)
		if err != nil {
			return nil, fmt.Errorf("unable to find history controlled by %s %s: %v", o.res.Kind, o.name(), err)
		}
		for _, cr := range crs {
			applied, err := applyRevision(o.obj, cr)
			if err != nil {
				return nil, fmt.Errorf("unable to parse history %s", cr.Name)
			}
			t, _ := templateOf(applied)
			entries = append(entries, revisionEntry{revision: cr.Revision, template: t, cause: cr.Annotations[changeCauseAnnotation], object: applied})
		}
	default:
		return nil, fmt.Errorf("no history viewer has been implemented for %q", groupKind(o.res))
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].revision < entries[j].revision })
	var out []revisionEntry
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].revision == e.revision {
			out[n-1] = e
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// applyRevision is the object as a ControllerRevision would restore it:
// the revision's data (a strategic merge patch of the template) applied
// to the live object.
func applyRevision(obj api.Object, cr *api.ControllerRevision) (api.Object, error) {
	cur, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	data := []byte(cr.Data.Raw)
	if len(data) == 0 {
		data = []byte("{}")
	}
	patched, err := patch.StrategicMergePatch(cur, data, patch.KindSchema(obj.GetTypeMeta().Kind))
	if err != nil {
		return nil, err
	}
	out := obj.DeepCopyObject()
	if err := json.Unmarshal(patched, out); err != nil {
		return nil, err
	}
	return out, nil
}

// templateOf is the pod template of a workload.
func templateOf(obj api.Object) (*api.PodTemplateSpec, bool) {
	switch o := obj.(type) {
	case *api.Deployment:
		return &o.Spec.Template, true
	case *api.DaemonSet:
		return &o.Spec.Template, true
	case *api.StatefulSet:
		return &o.Spec.Template, true
	case *api.ReplicaSet:
		return &o.Spec.Template, true
	}
	return nil, false
}
