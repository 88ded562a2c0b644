package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// runTaint is `kubectl taint NODE NAME KEY=VAL:EFFECT … KEY:EFFECT- …`.
func runTaint(inv *Invocation) error {
	var resources, specs []string
	inSpecs := false
	for _, a := range inv.Args {
		isTaint := strings.ContainsAny(a, "=:") || strings.HasSuffix(a, "-")
		switch {
		case isTaint:
			inSpecs = true
			specs = append(specs, a)
		case inSpecs:
			return fmt.Errorf("all resources must be specified before taint changes: %s", a)
		default:
			resources = append(resources, a)
		}
	}
	if len(resources) < 1 {
		return errors.New("one or more resources must be specified as <resource> <name>")
	}
	if len(specs) < 1 {
		return errors.New("at least one taint update is required")
	}
	add, remove, err := parseTaints(specs)
	if err != nil {
		return usageErrorf(inv.Cmd, "%s", err.Error())
	}
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	typ := strings.ToLower(resources[0])
	res, err := inv.resolveType(typ)
	if err != nil {
		return err
	}
	if res.Kind != "Node" {
		return fmt.Errorf("invalid resource type %s, only node types are supported", typ)
	}
	var conflicts []string
	for _, a := range add {
		for _, r := range remove {
			if a.Key == r.Key && (r.Effect == "" || a.Effect == r.Effect) {
				conflicts = append(conflicts, fmt.Sprintf("%s=%s", r.Key, r.Effect))
			}
		}
	}
	if len(conflicts) > 0 {
		return fmt.Errorf("can not both modify and remove the following taint(s) in the same command: %s", strings.Join(conflicts, ", "))
	}
	all, selector := inv.Flags.Bool("all"), inv.Flags.String("selector")
	switch {
	case all && selector != "":
		return errors.New("setting 'all' parameter with a non empty selector is prohibited")
	case !all && selector == "" && len(resources) < 2:
		return errors.New("at least one resource name must be specified since 'all' parameter is not set")
	}
	var objs []liveObject
	var errs []error
	if all || selector != "" {
		objs, _, errs, err = inv.loadLive([]string{typ}, liveOptions{all: all})
	} else {
		objs, _, errs, err = inv.loadLive(append([]string{typ}, resources[1:]...), liveOptions{})
	}
	if err != nil {
		return err
	}
	overwrite := inv.Flags.Bool("overwrite")
	for _, o := range objs {
		var op string
		p, err := mutationPatch(o, func(obj api.Object) error {
			node := obj.(*api.Node)
			if !overwrite {
				if exists := existingTaints(node.Spec.Taints, add); exists != "" {
					return fmt.Errorf("node %s already has %v taint(s) with same effect(s) and --overwrite is false", node.Name, exists)
				}
			}
			var taints []api.Taint
			var err error
			op, taints, err = reorganizeTaints(node.Spec.Taints, overwrite, add, remove)
			if err != nil {
				return err
			}
			node.Spec.Taints = taints
			return nil
		})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		result := o.obj
		if inv.dryRun() != "client" {
			if result, err = inv.sendPatch(o, p); err != nil {
				errs = append(errs, err)
				continue
			}
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

// parseTaints splits KEY=VAL:EFFECT specs into taints to add and KEY[:EFFECT]-
// specs into taints to remove.
func parseTaints(specs []string) (add, remove []api.Taint, err error) {
	seen := map[string]bool{}
	for _, s := range specs {
		if strings.HasSuffix(s, "-") {
			t, err := parseTaint(strings.TrimSuffix(s, "-"))
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, api.Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := parseTaint(s)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, fmt.Errorf("invalid taint spec: %v", s)
		}
		id := string(t.Effect) + "\x00" + t.Key
		if seen[id] {
			return nil, nil, fmt.Errorf("duplicated taints with the same key and effect: %v", goTaint(t))
		}
		seen[id] = true
		add = append(add, t)
	}
	return add, remove, nil
}

// parseTaint reads KEY, KEY:EFFECT or KEY=VALUE:EFFECT.
func parseTaint(s string) (api.Taint, error) {
	var t api.Taint
	parts := strings.Split(s, ":")
	switch len(parts) {
	case 1:
		t.Key = parts[0]
	case 2:
		t.Effect = api.TaintEffect(parts[1])
		switch t.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return t, fmt.Errorf("invalid taint effect: %v, unsupported taint effect", parts[1])
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return t, fmt.Errorf("invalid taint spec: %v", s)
		}
		t.Key = kv[0]
		if len(kv) == 2 {
			t.Value = kv[1]
			if errs := labels.IsValidLabelValue(t.Value); len(errs) > 0 {
				return t, fmt.Errorf("invalid taint spec: %v, %s", s, strings.Join(errs, "; "))
			}
		}
	default:
		return t, fmt.Errorf("invalid taint spec: %v", s)
	}
	if errs := labels.IsQualifiedName(t.Key); len(errs) > 0 {
		return t, fmt.Errorf("invalid taint spec: %v, %s", s, strings.Join(errs, "; "))
	}
	return t, nil
}

// goTaint prints a taint as Go's %v prints upstream's struct.
func goTaint(t api.Taint) string {
	return fmt.Sprintf("{%s %s %s <nil>}", t.Key, t.Value, t.Effect)
}

// taintString is Taint.ToString: key[=value][:effect].
func taintString(t api.Taint) string {
	switch {
	case t.Effect == "" && t.Value == "":
		return t.Key
	case t.Effect == "":
		return t.Key + "=" + t.Value + ":"
	case t.Value == "":
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// existingTaints lists the keys of taints to add that the node already
// has with the same effect.
func existingTaints(old, add []api.Taint) string {
	var keys []string
	for _, t := range add {
		for _, o := range old {
			if t.Key == o.Key && t.Effect == o.Effect {
				keys = append(keys, t.Key)
			}
		}
	}
	return strings.Join(keys, ",")
}

// reorganizeTaints is the node's new taint list (the added ones first,
// then the old ones they do not replace, minus the removed) and the word
// kubectl prints: tainted, untainted or modified.
func reorganizeTaints(old []api.Taint, overwrite bool, add, remove []api.Taint) (string, []api.Taint, error) {
	taints := append([]api.Taint{}, add...)
	for _, o := range old {
		replaced := false
		for _, t := range taints {
			if t.Key == o.Key && t.Effect == o.Effect {
				replaced = true
				break
			}
		}
		if !replaced {
			taints = append(taints, o)
		}
	}
	// Upstream's "added" compares the list's length with the old one's.
	added := len(old) != len(taints)
	var errs []error
	deleted := false
	for _, r := range remove {
		kept := taints[:0:0]
		for _, t := range taints {
			if t.Key == r.Key && (r.Effect == "" || t.Effect == r.Effect) {
				continue
			}
			kept = append(kept, t)
		}
		deleted = len(kept) != len(taints)
		taints = kept
		if !deleted {
			errs = append(errs, fmt.Errorf("taint %q not found", taintString(r)))
		}
	}
	op := "untainted"
	switch {
	case (added && deleted) || overwrite:
		op = "modified"
	case added:
		op = "tainted"
	}
	return op, taints, newAggregate(errs)
}
