package patch

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"kubeplay/core/api/codec"
)

// diffOptions are apimachinery's DiffOptions.
type diffOptions struct {
	setElementOrder           bool // emit $setElementOrder for changed merging lists
	ignoreChangesAndAdditions bool // only deletions
	ignoreDeletions           bool // only changes and additions
	buildRetainKeysDirective  bool // emit $retainKeys (the field has retainKeys)
}

// CreateTwoWayMergePatch returns the strategic merge patch that turns
// original into modified.
func CreateTwoWayMergePatch(original, modified []byte, schema Schema) ([]byte, error) {
	o, m, _, err := decodeThree(original, modified, nil)
	if err != nil {
		return nil, errSMPBadJSONDoc
	}
	p, err := diffMaps(o, m, schema.t, diffOptions{setElementOrder: true})
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

// CreateThreeWayMergePatch is kubectl apply's patch (client-side apply):
// original is the last-applied-configuration, modified the new manifest
// and current the live object. Fields removed from the manifest since the
// last apply are deleted; fields the manifest sets are changed or added
// where the live object differs; fields only the server set are left
// alone. A kind without a schema gets a JSON merge patch instead, as
// kubectl does for kinds it has no types for. With overwrite false, a
// patch that would undo a change made to the live object since the last
// apply fails with a *ConflictError.
func CreateThreeWayMergePatch(original, modified, current []byte, schema Schema, overwrite bool) ([]byte, error) {
	if schema.IsZero() {
		return createThreeWayJSONMergePatch(original, modified, current)
	}
	o, m, c, err := decodeThree(original, modified, current)
	if err != nil {
		return nil, errSMPBadJSONDoc
	}
	// The live object and the last-applied configuration are only read;
	// copies keep the diff's in-place sorting away from the caller's view.
	delta, err := diffMaps(c, deepCopy(m).(map[string]any), schema.t, diffOptions{ignoreDeletions: true, setElementOrder: true})
	if err != nil {
		return nil, err
	}
	deletions, err := diffMaps(o, deepCopy(m).(map[string]any), schema.t, diffOptions{setElementOrder: true, ignoreChangesAndAdditions: true})
	if err != nil {
		return nil, err
	}
	p, err := mergeMap(deletions, delta, schema.t, mergeOptions{})
	if err != nil {
		return nil, err
	}
	if !overwrite {
		o2, _, c2, _ := decodeThree(original, nil, current)
		changed, err := diffMaps(o2, c2, schema.t, diffOptions{})
		if err != nil {
			return nil, err
		}
		conflict, err := mergingMapsHaveConflicts(p, changed, schema.t)
		if err != nil {
			return nil, err
		}
		if conflict {
			return nil, newConflictError(p, changed)
		}
	}
	return json.Marshal(p)
}

func diffMaps(original, modified map[string]any, s *schemaType, opts diffOptions) (map[string]any, error) {
	patch := map[string]any{}
	var retain []any
	for _, key := range slices.Sorted(maps.Keys(modified)) {
		mv := modified[key]
		if opts.buildRetainKeysDirective && mv != nil {
			retain = append(retain, key)
		}
		ov, ok := original[key]
		if !ok {
			if !opts.ignoreChangesAndAdditions {
				patch[key] = mv
			}
			continue
		}
		if key == directiveMarker {
			os, ok1 := ov.(string)
			ms, ok2 := mv.(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("invalid value for special key: %s", directiveMarker)
			}
			if os != ms {
				patch[key] = mv
			}
			continue
		}
		if kindOf(ov) != kindOf(mv) {
			if !opts.ignoreChangesAndAdditions {
				patch[key] = mv
			}
			continue
		}
		var err error
		switch o := ov.(type) {
		case map[string]any:
			err = diffMapField(key, o, mv.(map[string]any), patch, s, opts)
		case []any:
			err = diffSliceField(key, o, mv.([]any), patch, s, opts)
		default:
			replaceIfNotEqual(key, ov, mv, patch, opts)
		}
		if err != nil {
			return nil, err
		}
	}
	if !opts.ignoreDeletions {
		for k := range original {
			if _, ok := modified[k]; !ok {
				patch[k] = nil
			}
		}
	}
	if len(retain) > 0 && (len(patch) > 0 || hasAdditionalNewField(original, modified)) {
		patch[retainKeysDirective] = sortScalars(retain)
	}
	return patch, nil
}

func diffMapField(key string, o, m, patch map[string]any, s *schemaType, opts diffOptions) error {
	sub, meta := s.lookup(key)
	retainKeys, strategy := meta.strategy()
	opts.buildRetainKeysDirective = retainKeys
	if strategy == replaceDirective {
		if !opts.ignoreChangesAndAdditions {
			patch[key] = m
		}
		return nil
	}
	p, err := diffMaps(o, m, sub, opts)
	if err != nil {
		return err
	}
	if len(p) > 0 {
		patch[key] = p
	}
	return nil
}

func diffSliceField(key string, o, m []any, patch map[string]any, s *schemaType, opts diffOptions) error {
	sub, meta := s.lookup(key)
	retainKeys, strategy := meta.strategy()
	if strategy != mergeDirective {
		replaceIfNotEqual(key, o, m, patch, opts)
		return nil
	}
	opts.buildRetainKeysDirective = retainKeys
	add, del, order, err := diffLists(o, m, sub, meta.mergeKey, opts)
	if err != nil {
		return err
	}
	if len(add) > 0 {
		patch[key] = add
	}
	if len(del) > 0 {
		patch[deleteFromPrimitiveListPrefix+"/"+key] = del
	}
	if len(order) > 0 {
		patch[setElementOrderPrefix+"/"+key] = order
	}
	return nil
}

func replaceIfNotEqual(key string, o, m any, patch map[string]any, opts diffOptions) {
	if opts.ignoreChangesAndAdditions || deepEqual(o, m) {
		return
	}
	patch[key] = m
}

func hasAdditionalNewField(original, modified map[string]any) bool {
	for k, v := range original {
		if v == nil {
			continue
		}
		if _, ok := modified[k]; !ok {
			return true
		}
	}
	return false
}

// diffLists diffs a merging list: the patch items, the scalars to delete
// (for "$deleteFromPrimitiveList") and the "$setElementOrder" list.
func diffLists(original, modified []any, s *schemaType, mergeKey string, opts diffOptions) (add, del, order []any, err error) {
	if len(original) == 0 {
		if len(modified) == 0 || opts.ignoreChangesAndAdditions {
			return nil, nil, nil, nil
		}
		return modified, nil, nil, nil
	}
	kind, err := sliceElementType(original, modified)
	if err != nil {
		return nil, nil, nil, err
	}
	switch kind {
	case kindMap:
		add, del, err = diffListsOfMaps(original, modified, s, mergeKey, opts)
		if err != nil {
			return nil, nil, nil, err
		}
		if add, err = normalizeSliceOrder(add, modified, mergeKey, kind); err != nil {
			return nil, nil, nil, err
		}
		same, err := isOrderSame(original, modified, mergeKey)
		if err != nil {
			return nil, nil, nil, err
		}
		// Deletions travel in the patch list as "$patch: delete" items.
		add = append(add, del...)
		del = nil
		if opts.setElementOrder && ((!opts.ignoreChangesAndAdditions && (len(add) > 0 || !same)) ||
			(!opts.ignoreDeletions && len(add) > 0)) {
			order = make([]any, len(modified))
			for i, v := range modified {
				order[i] = map[string]any{mergeKey: v.(map[string]any)[mergeKey]}
			}
		}
	case kindSlice:
		return nil, nil, nil, errNoListOfLists
	default:
		add, del = diffListsOfScalars(original, modified, opts)
		if add, err = normalizeSliceOrder(add, modified, mergeKey, kind); err != nil {
			return nil, nil, nil, err
		}
		// original is sorted in place by now, so a pure reordering of a
		// scalar list goes unnoticed, as upstream.
		if opts.setElementOrder && ((!opts.ignoreDeletions && len(del) > 0) ||
			(!opts.ignoreChangesAndAdditions && !deepEqual(original, modified))) {
			order = modified
		}
	}
	return add, del, order, nil
}

func isOrderSame(original, modified []any, mergeKey string) (bool, error) {
	if len(original) != len(modified) {
		return false, nil
	}
	for i := range modified {
		equal, err := mergeKeyValueEqual(original[i], modified[i], mergeKey)
		if err != nil || !equal {
			return equal, err
		}
	}
	return true, nil
}

// diffListsOfScalars compares two scalar lists as sorted sets of their
// printed values. It sorts original in place, as upstream does.
func diffListsOfScalars(original, modified []any, opts diffOptions) (add, del []any) {
	mod := sortScalars(append([]any(nil), modified...))
	orig := sortScalars(original)
	add, del = []any{}, []any{}
	i, j := 0, 0
	for i < len(orig) || j < len(mod) {
		var os, ms string
		if i < len(orig) {
			os = fmt.Sprintf("%v", orig[i])
		}
		if j < len(mod) {
			ms = fmt.Sprintf("%v", mod[j])
		}
		switch {
		case i < len(orig) && j < len(mod) && os == ms:
			i++
			j++
		case i >= len(orig) || (j < len(mod) && os > ms):
			if !opts.ignoreChangesAndAdditions {
				add = append(add, mod[j])
			}
			j++
		default:
			if !opts.ignoreDeletions {
				del = append(del, orig[i])
			}
			i++
		}
	}
	return add, deduplicateScalars(del)
}

func diffListsOfMaps(original, modified []any, s *schemaType, mergeKey string, opts diffOptions) (add, del []any, err error) {
	add = make([]any, 0, len(modified))
	del = make([]any, 0, len(original))
	orig, err := sortMergeList(original, mergeKey)
	if err != nil {
		return nil, nil, err
	}
	mod, err := sortMergeList(modified, mergeKey)
	if err != nil {
		return nil, nil, err
	}
	i, j := 0, 0
	for i < len(orig) || j < len(mod) {
		var oe, me map[string]any
		var ov, mv any
		var os, ms string
		if i < len(orig) {
			if oe, ov, err = mapAndMergeKey(orig[i], mergeKey); err != nil {
				return nil, nil, err
			}
			os = fmt.Sprintf("%v", ov)
		}
		if j < len(mod) {
			if me, mv, err = mapAndMergeKey(mod[j], mergeKey); err != nil {
				return nil, nil, err
			}
			ms = fmt.Sprintf("%v", mv)
		}
		switch {
		case i < len(orig) && j < len(mod) && os == ms:
			p, err := diffMaps(oe, me, s, opts)
			if err != nil {
				return nil, nil, err
			}
			if len(p) > 0 {
				p[mergeKey] = mv
				add = append(add, p)
			}
			i++
			j++
		case i >= len(orig) || (j < len(mod) && os > ms):
			if !opts.ignoreChangesAndAdditions {
				add = append(add, me)
			}
			j++
		default:
			if !opts.ignoreDeletions {
				del = append(del, map[string]any{mergeKey: ov, directiveMarker: deleteDirective})
			}
			i++
		}
	}
	return add, del, nil
}

func mapAndMergeKey(v any, mergeKey string) (map[string]any, any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, errBadArgType(mapTypeName, v)
	}
	value, ok := m[mergeKey]
	if !ok {
		return nil, nil, errNoMergeKey(m, mergeKey)
	}
	return m, value, nil
}

// sortMergeList returns a merging list sorted by the printed merge key
// (scalars: deduplicated and sorted), leaving the input as it was.
func sortMergeList(list []any, mergeKey string) ([]any, error) {
	if len(list) == 0 {
		return list, nil
	}
	kind, err := sliceElementType(list)
	if err != nil {
		return nil, err
	}
	if kind != kindMap {
		return sortScalars(deduplicateScalars(list)), nil
	}
	out := append([]any(nil), list...)
	sort.SliceStable(out, func(i, j int) bool {
		return fmt.Sprintf("%v", out[i].(map[string]any)[mergeKey]) < fmt.Sprintf("%v", out[j].(map[string]any)[mergeKey])
	})
	return out, nil
}

// sortScalars sorts values by their printed form, in place.
func sortScalars(s []any) []any {
	sort.SliceStable(s, func(i, j int) bool {
		return fmt.Sprintf("%v", s[i]) < fmt.Sprintf("%v", s[j])
	})
	return s
}

// mergingMapsHaveConflicts reports whether a patch would change a field
// that changed on the server since the last apply.
func mergingMapsHaveConflicts(left, right map[string]any, s *schemaType) (bool, error) {
	return fieldsHaveConflicts(left, right, s, "", "")
}

func fieldsHaveConflicts(left, right any, s *schemaType, strategy, mergeKey string) (bool, error) {
	switch l := left.(type) {
	case map[string]any:
		r, ok := right.(map[string]any)
		if !ok {
			return true, nil
		}
		lm, okL := l[directiveMarker]
		rm, okR := r[directiveMarker]
		if okL || okR {
			if okL != okR || !deepEqual(lm, rm) {
				return true, nil
			}
		}
		if strategy == replaceDirective {
			return false, nil
		}
		return mapsHaveConflicts(l, r, s)
	case []any:
		r, ok := right.([]any)
		if !ok {
			return true, nil
		}
		return slicesHaveConflicts(l, r, s, strategy, mergeKey)
	case string, float64, bool, int64, nil:
		return !deepEqual(left, right), nil
	}
	return true, fmt.Errorf("unknown type: %s", typeName(left))
}

func mapsHaveConflicts(l, r map[string]any, s *schemaType) (bool, error) {
	for _, key := range slices.Sorted(maps.Keys(l)) {
		if key == directiveMarker || key == retainKeysDirective {
			continue
		}
		rv, ok := r[key]
		if !ok {
			continue
		}
		var sub *schemaType
		var strategy, mergeKey string
		switch l[key].(type) {
		case []any, map[string]any:
			var meta fieldMeta
			sub, meta = s.lookup(key)
			_, strategy = meta.strategy()
			mergeKey = meta.mergeKey
		}
		if conflict, err := fieldsHaveConflicts(l[key], rv, sub, strategy, mergeKey); conflict {
			return true, err
		}
	}
	return false, nil
}

func slicesHaveConflicts(l, r []any, s *schemaType, strategy, mergeKey string) (bool, error) {
	kind, err := sliceElementType(l, r)
	if err != nil {
		return true, err
	}
	if strategy == mergeDirective {
		if kind != kindMap {
			return false, nil
		}
		lm, err := sliceOfMapsToMapOfMaps(l, mergeKey)
		if err != nil {
			return true, err
		}
		rm, err := sliceOfMapsToMapOfMaps(r, mergeKey)
		if err != nil {
			return true, err
		}
		for _, k := range slices.Sorted(maps.Keys(lm)) {
			if rv, ok := rm[k]; ok {
				if conflict, err := fieldsHaveConflicts(lm[k], rv, s, "", ""); conflict {
					return true, err
				}
			}
		}
		return false, nil
	}
	if len(l) != len(r) {
		return true, nil
	}
	if kind != kindMap {
		l = sortScalars(deduplicateScalars(l))
		r = sortScalars(deduplicateScalars(r))
		if len(l) != len(r) {
			return true, nil
		}
	}
	for i := range l {
		if conflict, err := fieldsHaveConflicts(l[i], r[i], s, "", ""); conflict {
			return true, err
		}
	}
	return false, nil
}

func sliceOfMapsToMapOfMaps(list []any, mergeKey string) (map[string]any, error) {
	out := make(map[string]any, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("invalid element type in merging list:%v", list)
		}
		value, ok := m[mergeKey]
		if !ok {
			return nil, fmt.Errorf("cannot find merge key `%s` in merging list element:%v", mergeKey, m)
		}
		out[fmt.Sprintf("%s", value)] = m
	}
	return out, nil
}

// toYAML renders a patch for a conflict message, as mergepatch does.
func toYAML(v any) string {
	j, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	y, err := codec.JSONToYAML(j)
	if err != nil {
		return err.Error()
	}
	return string(y)
}
