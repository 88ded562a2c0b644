package kubectl

import (
	"errors"
	"fmt"
	"strings"
)

// parseAnnotationArgs is cmdutil.ParsePairs with removal: KEY=VALUE (any
// value) or KEY-.
func parseAnnotationArgs(args []string) (*metaEdit, error) {
	e := &metaEdit{}
	var invalid []string
	for _, a := range args {
		switch {
		case strings.Contains(a, "=") && a[0] != '=':
			i := strings.Index(a, "=")
			e.setKey(a[:i], a[i+1:])
		case strings.HasSuffix(a, "-") && a != "-":
			e.remove = append(e.remove, a[:len(a)-1])
		default:
			invalid = append(invalid, a)
		}
	}
	if len(invalid) > 0 {
		return nil, fmt.Errorf("invalid annotation format: %s", strings.Join(invalid, ", "))
	}
	return e, nil
}

// checkBoth refuses a key both set and removed (upstream checks this last).
func (e *metaEdit) checkBoth() error {
	var both []string
	for _, k := range e.remove {
		if e.sets(k) {
			both = append(both, k)
		}
	}
	if len(both) > 0 {
		return fmt.Errorf("can not both modify and remove the following annotation(s) in the same command: %s", strings.Join(both, ", "))
	}
	return nil
}

// runAnnotate is `kubectl annotate`.
func runAnnotate(inv *Invocation) error {
	resources, pairs, err := splitResourcesAndPairs(inv.Args, "annotation")
	if err != nil {
		return err
	}
	edit, err := parseAnnotationArgs(pairs)
	if err != nil {
		return err
	}
	list := inv.Flags.Bool("list")
	if err := inv.validateMetaCommand(resources, list, "rsrc.yaml", "rsrc.json"); err != nil {
		return err
	}
	if len(edit.set) == 0 && len(edit.remove) == 0 && !list {
		return errors.New("at least one annotation update is required")
	}
	if err := edit.checkBoth(); err != nil {
		return err
	}
	overwrite := inv.Flags.Bool("overwrite")
	return inv.editMetadata(resources, "annotations", func(o liveObject) (string, error) {
		m := o.obj.GetObjectMeta()
		if !overwrite {
			var found []string
			for _, kv := range edit.set {
				// The change cause may always be overwritten.
				if kv.key == changeCauseAnnotation {
					continue
				}
				if cur, ok := m.Annotations[kv.key]; ok && cur != kv.value {
					found = append(found, fmt.Sprintf("'%s' already has a value (%s)", kv.key, cur))
				}
			}
			if len(found) > 0 {
				return "", fmt.Errorf("--overwrite is false but found the following declared annotation(s): %s", strings.Join(found, "; "))
			}
		}
		m.Annotations = edit.apply(m.Annotations)
		return "annotated", nil
	}, nil)
}
