package kubectl

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/kubectl/jsonpath"
)

// waitCondition is what --for asks: met reports whether one object (as
// of a watch event) satisfies it.
type waitCondition struct {
	deleted bool
	created bool
	met     func(obj api.Object) (bool, error)
}

// runWait is `kubectl wait --for=…`: block (in virtual time) until each
// named object meets the condition, or --timeout passes.
func runWait(inv *Invocation) error {
	cond, err := parseWaitFor(inv.Flags.String("for"))
	if err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	timeout := inv.Flags.Duration("timeout")
	if timeout < 0 {
		timeout = 168 * time.Hour
	}
	w := &waiter{inv: inv, timeout: timeout}
	opts := liveOptions{all: inv.Flags.Bool("all"), allNamespaces: inv.Flags.Bool("all-namespaces")}
	if cond.created {
		// Poll until the builder finds every object named.
		for {
			_, _, errs, err := inv.loadLive(inv.Args, opts)
			if err != nil {
				return err
			}
			if !anyNotFound(errs) {
				if len(errs) > 0 {
					return aggregate(errs)
				}
				break
			}
			if !w.pass(500 * time.Millisecond) {
				return errWaitTimeout
			}
		}
	}
	objs, _, errs, err := inv.loadLive(inv.Args, opts)
	if err != nil {
		return err
	}
	if cond.deleted {
		var kept []error
		for _, e := range errs {
			if !apierrors.IsNotFound(e) {
				kept = append(kept, e)
			}
		}
		errs = kept
	}
	for _, o := range objs {
		var done bool
		var err error
		switch {
		case cond.deleted:
			done, err = w.forDeletion(o)
		case cond.created:
			done = true
		default:
			done, err = w.forCondition(o, cond.met)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if done {
			fmt.Fprintln(inv.out(), inv.operationMessage(o.res, o.name(), "condition met"))
		}
	}
	if len(objs) == 0 && len(errs) == 0 && !cond.deleted {
		return errors.New("no matching resources found")
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

func anyNotFound(errs []error) bool {
	for _, e := range errs {
		if apierrors.IsNotFound(e) {
			return true
		}
	}
	return false
}

// waiter keeps the one deadline every object of a wait shares.
type waiter struct {
	inv     *Invocation
	timeout time.Duration
	waited  time.Duration
}

// pass lets up to d of virtual time go by; false once the deadline has
// passed or the user interrupted.
func (w *waiter) pass(d time.Duration) bool {
	if w.waited >= w.timeout {
		return false
	}
	if left := w.timeout - w.waited; d > left {
		d = left
	}
	if !w.inv.advance(d) {
		return false
	}
	w.waited += d
	return true
}

func timedOutOn(o liveObject) error {
	return fmt.Errorf("%s on %s/%s", errWaitTimeout, o.res.Name, o.name())
}

// watchUntil follows one object: check is called with its current state
// and after each change (nil when it is gone) until it reports done.
func (w *waiter) watchUntil(o liveObject, check func(obj api.Object) (bool, error)) (bool, error) {
	name := o.name()
	var pending []apiserver.WatchEvent
	stop, err := w.inv.Env.Client.Watch(o.res, o.namespace(), apiserver.ListOptions{
		Filter: func(obj api.Object) bool { return obj.GetObjectMeta().Name == name },
	}, func(ev apiserver.WatchEvent) { pending = append(pending, ev) })
	if err != nil {
		return false, err
	}
	defer stop()
	seen := false
	for {
		for len(pending) > 0 {
			ev := pending[0]
			pending = pending[1:]
			seen = true
			obj := ev.Object
			if ev.Type == apiserver.Deleted {
				obj = nil
			}
			done, err := check(obj)
			if err != nil || done {
				return done, err
			}
		}
		if !seen {
			// The object went before the watch began.
			if done, err := check(nil); err != nil || done {
				return done, err
			}
			seen = true
		}
		if !w.pass(time.Second) {
			return false, timedOutOn(o)
		}
	}
}

// forDeletion is --for=delete.
func (w *waiter) forDeletion(o liveObject) (bool, error) {
	cur, err := w.inv.Env.Client.Get(o.res, o.namespace(), o.name())
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if w.timeout == 0 {
		return false, fmt.Errorf("condition not met for %s/%s", o.res.Name, o.name())
	}
	uid := cur.GetObjectMeta().UID
	return w.watchUntil(o, func(obj api.Object) (bool, error) {
		return obj == nil || obj.GetObjectMeta().UID != uid, nil
	})
}

// forCondition is --for=condition=… and --for=jsonpath=….
func (w *waiter) forCondition(o liveObject, met func(api.Object) (bool, error)) (bool, error) {
	if w.timeout == 0 {
		cur, err := w.inv.Env.Client.Get(o.res, o.namespace(), o.name())
		if err != nil {
			return false, err
		}
		ok, err := met(cur)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, fmt.Errorf("condition not met for %s/%s", o.res.Name, o.name())
		}
		return true, nil
	}
	return w.watchUntil(o, func(obj api.Object) (bool, error) {
		if obj == nil {
			return false, apierrors.NewNotFound(apierrors.GroupResource{Group: o.res.Group, Resource: o.res.Name}, o.name())
		}
		return met(obj)
	})
}

// parseWaitFor reads --for: delete, create, condition=NAME[=VALUE],
// jsonpath='{…}'[=VALUE].
func parseWaitFor(s string) (waitCondition, error) {
	lower := strings.ToLower(s)
	switch {
	case lower == "delete":
		return waitCondition{deleted: true}, nil
	case lower == "create":
		return waitCondition{created: true}, nil
	case strings.HasPrefix(s, "condition="):
		name, value := strings.TrimPrefix(s, "condition="), "true"
		if i := strings.Index(name, "="); i >= 0 {
			name, value = name[:i], name[i+1:]
		}
		return waitCondition{met: func(obj api.Object) (bool, error) { return conditionMet(obj, name, value) }}, nil
	case strings.HasPrefix(s, "jsonpath="):
		parts := splitJSONPathInput(strings.TrimPrefix(s, "jsonpath="))
		if len(parts) < 1 || len(parts) > 2 {
			return waitCondition{}, errors.New("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'")
		}
		if strings.TrimSpace(parts[0]) == "" {
			return waitCondition{}, errors.New("jsonpath expression cannot be empty")
		}
		expr, err := relaxedWaitPath(parts[0])
		if err != nil {
			return waitCondition{}, err
		}
		value, anyValue := "", len(parts) == 1
		if !anyValue {
			value = strings.Trim(parts[1], `'"`)
			if value == "" {
				return waitCondition{}, errors.New("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3")
			}
		}
		t, err := jsonpath.Parse(expr)
		if err != nil {
			return waitCondition{}, err
		}
		t.AllowMissingKeys = true
		return waitCondition{met: func(obj api.Object) (bool, error) { return jsonPathMet(t, obj, value, anyValue) }}, nil
	}
	return waitCondition{}, fmt.Errorf("unrecognized condition: %q", s)
}

// waitPathForms are the spellings RelaxedJSONPathExpression accepts:
// {.a.b}, {a.b}, .a.b and a.b.
var waitPathForms = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`) })

// relaxedWaitPath is get's RelaxedJSONPathExpression, which (unlike -o
// jsonpath) refuses an expression in none of those forms.
func relaxedWaitPath(p string) (string, error) {
	m := waitPathForms().FindStringSubmatch(p)
	if m == nil {
		return "", errors.New("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
	}
	field := m[1]
	if field == "" {
		field = m[2]
	}
	return "{." + field + "}", nil
}

// splitJSONPathInput splits on single '=' ("==" stays in the expression).
func splitJSONPathInput(in string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(in); i++ {
		if in[i] == '=' {
			if i+1 < len(in) && in[i+1] == '=' {
				cur.WriteString("==")
				i++
				continue
			}
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(in[i])
	}
	return append(out, cur.String())
}

// conditionMet finds status.conditions[type=name] (case-insensitively)
// and compares its status; a condition older than the object's generation
// does not count.
func conditionMet(obj api.Object, name, value string) (bool, error) {
	u, err := codec.Unstructured(obj)
	if err != nil {
		return false, err
	}
	status, _ := u["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		t, _ := m["type"].(string)
		if !strings.EqualFold(t, name) {
			continue
		}
		s, ok := m["status"].(string)
		if !ok {
			continue
		}
		if gen := obj.GetObjectMeta().Generation; gen != 0 {
			observed, found := jsonInt(m["observedGeneration"])
			if !found {
				observed, found = jsonInt(status["observedGeneration"])
			}
			if found && observed < gen {
				return false, nil
			}
		}
		return strings.EqualFold(s, value), nil
	}
	return false, nil
}

func jsonInt(v any) (int64, bool) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// jsonPathMet evaluates the expression over the object: exactly one value,
// equal to want (any value, when anyValue).
func jsonPathMet(t *jsonpath.Template, obj api.Object, want string, anyValue bool) (bool, error) {
	u, err := codec.Unstructured(obj)
	if err != nil {
		return false, err
	}
	vals, err := t.Values(u)
	if err != nil {
		return false, err
	}
	if len(vals) == 0 {
		return false, nil
	}
	if len(vals) > 1 {
		return false, errors.New("given jsonpath expression matches more than one value")
	}
	if anyValue {
		return true, nil
	}
	switch vals[0].(type) {
	case map[string]any, []any:
		return false, errors.New("jsonpath leads to a nested object or list which is not supported")
	}
	return strings.TrimSpace(jsonpath.Text(vals[0])) == strings.TrimSpace(want), nil
}
