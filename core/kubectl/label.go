package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver"
	"kubeplay/core/apiserver/patch"
)

// keyValue is one KEY=VALUE argument of label or annotate.
type keyValue struct{ key, value string }

// metaEdit is what label and annotate do to one map of an object's
// metadata: set some keys, remove others.
type metaEdit struct {
	set    []keyValue
	remove []string
}

// setKey adds or replaces a key, keeping the arguments' order.
func (e *metaEdit) setKey(k, v string) {
	for i := range e.set {
		if e.set[i].key == k {
			e.set[i].value = v
			return
		}
	}
	e.set = append(e.set, keyValue{k, v})
}

func (e *metaEdit) sets(k string) bool {
	for _, kv := range e.set {
		if kv.key == k {
			return true
		}
	}
	return false
}

// apply changes m (nil becomes an empty map, as the unstructured object
// upstream edits gains an empty map).
func (e *metaEdit) apply(m map[string]string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	for _, kv := range e.set {
		m[kv.key] = kv.value
	}
	for _, k := range e.remove {
		delete(m, k)
	}
	return m
}

// parseLabelArgs is label's parseLabels: KEY=VALUE with a valid value, or
// KEY- to remove.
func parseLabelArgs(args []string) (*metaEdit, error) {
	e := &metaEdit{}
	for _, a := range args {
		switch {
		case strings.Contains(a, "="):
			parts := strings.Split(a, "=")
			if len(parts) != 2 {
				return nil, fmt.Errorf("invalid label spec: %v", a)
			}
			if errs := labels.IsValidLabelValue(parts[1]); len(errs) > 0 {
				return nil, fmt.Errorf("invalid label value: %q: %s", a, strings.Join(errs, ";"))
			}
			e.setKey(parts[0], parts[1])
		case strings.HasSuffix(a, "-"):
			e.remove = append(e.remove, a[:len(a)-1])
		default:
			return nil, fmt.Errorf("unknown label spec: %v", a)
		}
	}
	for _, k := range e.remove {
		if e.sets(k) {
			return nil, errors.New("can not both modify and remove a label in the same command")
		}
	}
	return e, nil
}

// runLabel is `kubectl label`.
func runLabel(inv *Invocation) error {
	resources, pairs, err := splitResourcesAndPairs(inv.Args, "label")
	if err != nil {
		return err
	}
	edit, err := parseLabelArgs(pairs)
	if err != nil {
		return err
	}
	list := inv.Flags.Bool("list")
	if err := inv.validateMetaCommand(resources, list, "pod.yaml", "pod.json"); err != nil {
		return err
	}
	if len(edit.set) == 0 && len(edit.remove) == 0 && !list {
		return errors.New("at least one label update is required")
	}
	overwrite := inv.Flags.Bool("overwrite")
	return inv.editMetadata(resources, "labels", func(o liveObject) (string, error) {
		m := o.obj.GetObjectMeta()
		if !overwrite {
			var errs []error
			for _, kv := range edit.set {
				if cur, ok := m.Labels[kv.key]; ok && cur != kv.value {
					errs = append(errs, fmt.Errorf("'%s' already has a value (%s), and --overwrite is false", kv.key, cur))
				}
			}
			if len(errs) > 0 {
				return "", newAggregate(errs)
			}
		}
		before := mapSize(m.Labels)
		changed := m.Labels == nil || edit.changes(m.Labels)
		m.Labels = edit.apply(m.Labels)
		switch {
		case !changed:
			return "not labeled", nil
		case !overwrite && mapSize(m.Labels) < before:
			return "unlabeled", nil
		}
		return "labeled", nil
	}, edit.remove)
}

// changes reports whether applying e to m would change it.
func (e *metaEdit) changes(m map[string]string) bool {
	for _, kv := range e.set {
		if cur, ok := m[kv.key]; !ok || cur != kv.value {
			return true
		}
	}
	for _, k := range e.remove {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// mapSize is how long a map reads in JSON: upstream tells "unlabeled" from
// "labeled" by whether the object's JSON got shorter.
func mapSize(m map[string]string) int {
	if m == nil {
		return 0
	}
	b, _ := json.Marshal(m)
	return len(b) + len(`"labels":`)
}

// validateMetaCommand is the argument checking label and annotate share.
func (inv *Invocation) validateMetaCommand(resources []string, list bool, fileExample, jsonExample string) error {
	if list && inv.Flags.String("output") != "" {
		return errors.New("--list and --output may not be specified together")
	}
	all := inv.Flags.Bool("all")
	if all && inv.Flags.String("selector") != "" {
		return errors.New("cannot set --all and --selector at the same time")
	}
	if all && inv.Flags.String("field-selector") != "" {
		return errors.New("cannot set --all and --field-selector at the same time")
	}
	hasFiles := len(inv.Flags.Strings("filename")) > 0
	if inv.Flags.Bool("local") {
		if inv.dryRun() == "server" {
			return errors.New("cannot specify --local and --dry-run=server - did you mean --dry-run=client?")
		}
		if len(resources) > 0 {
			return fmt.Errorf("can only use local files by -f %s or --filename=%s when --local=true is set", fileExample, jsonExample)
		}
		if !hasFiles {
			return fmt.Errorf("one or more files must be specified as -f %s or --filename=%s", fileExample, jsonExample)
		}
		return nil
	}
	if len(resources) == 0 && !hasFiles {
		return errors.New("one or more resources must be specified as <resource> <name> or <resource>/<name>")
	}
	return nil
}

// editMetadata runs label or annotate over the objects named: change
// each with mutate (which returns the word to print), send the JSON merge
// patch, print the result; --list prints the map instead.
func (inv *Invocation) editMetadata(resources []string, field string, mutate func(liveObject) (string, error), removing []string) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	var objs []liveObject
	var errs []error
	single := false
	if inv.Flags.Bool("local") {
		infos, ferrs := inv.manifests()
		errs = ferrs
		for _, in := range infos {
			objs = append(objs, liveObject{res: in.Resource, obj: in.Object})
		}
		single = len(infos) == 1
	} else {
		var err error
		objs, single, errs, err = inv.loadLive(resources, liveOptions{all: inv.Flags.Bool("all"), allNamespaces: inv.Flags.Bool("all-namespaces")})
		if err != nil {
			return err
		}
	}
	rv := inv.Flags.String("resource-version")
	if !single && rv != "" {
		return errors.New("--resource-version may only be used with a single resource")
	}
	list := inv.Flags.Bool("list")
	local := inv.dryRun() == "client" || inv.Flags.Bool("local") || list
	for _, o := range objs {
		m := o.obj.GetObjectMeta()
		if rv != "" {
			m.ResourceVersion = ""
		}
		before, err := json.Marshal(o.obj)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !local && field == "labels" {
			for _, k := range removing {
				if _, ok := m.Labels[k]; !ok {
					fmt.Fprintf(inv.out(), "label %q not found.\n", k)
				}
			}
		}
		if !local && field == "annotations" && inv.recording() {
			setAnnotation(o.obj, changeCauseAnnotation, inv.changeCause())
		}
		op, err := mutate(o)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if rv != "" {
			m.ResourceVersion = rv
		}
		result := o.obj
		if !local {
			if field == "labels" && inv.recording() {
				setAnnotation(o.obj, changeCauseAnnotation, inv.changeCause())
			}
			after, err := json.Marshal(o.obj)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p, err := patch.CreateMergePatch(before, after)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			result, err = inv.Env.Client.Patch(o.res, o.namespace(), o.name(), apiserver.MergePatchType, p,
				apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
			if err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if list {
			inv.listMetadata(o, result, field, single)
			continue
		}
		if err := inv.reportOp(o.res, result, op); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

// listMetadata is --list: the labels (or annotations) as KEY=VALUE lines,
// under a heading when several objects are listed.
func (inv *Invocation) listMetadata(o liveObject, obj api.Object, field string, single bool) {
	m := obj.GetObjectMeta().Labels
	if field == "annotations" {
		m = obj.GetObjectMeta().Annotations
	}
	indent := ""
	if !single {
		indent = " "
		fmt.Fprintf(inv.out(), "Listing %s for %s.%s/%s:\n", field, o.res.Kind, o.res.Group, o.name())
	}
	for _, k := range tmplSortedKeys(m) {
		fmt.Fprintf(inv.out(), "%s%s=%s\n", indent, k, m[k])
	}
}
