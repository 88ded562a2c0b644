package patch

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Directives of strategic merge patch.
const (
	directiveMarker  = "$patch"
	deleteDirective  = "delete"
	replaceDirective = "replace"
	mergeDirective   = "merge"

	retainKeysStrategy  = "retainKeys"
	retainKeysDirective = "$" + retainKeysStrategy

	deleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList"
	setElementOrderPrefix         = "$setElementOrder"
)

// Errors worded as apimachinery's mergepatch package words them.
var (
	errSMPBadJSONDoc                = errors.New("invalid JSON document")
	errNoListOfLists                = errors.New("lists of lists are not supported")
	errBadPatchFormatForPrimitive   = errors.New("invalid patch format of primitive list")
	errBadPatchFormatForRetainKeys  = errors.New("invalid patch format of retainKeys")
	errBadPatchFormatForSetOrder    = errors.New("invalid patch format of setElementOrder list")
	errUnsupportedStrategicMergeFmt = errors.New("strategic merge patch format is not supported")
)

func errNoMergeKey(m map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", m, key)
}

// errBadArgType words a type mismatch as mergepatch.ErrBadArgType does,
// naming Go types as reflect prints them.
func errBadArgType(expected string, actual any) error {
	return fmt.Errorf("expected a %s, but received a %s", expected, typeName(actual))
}

const (
	mapTypeName   = "map[string]interface {}"
	sliceTypeName = "[]interface {}"
)

func typeName(v any) string {
	if v == nil {
		// fmt's rendering of a nil reflect.Type with %s.
		return "%!s(<nil>)"
	}
	return reflect.TypeOf(v).String()
}

func errBadPatchType(t any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %s in map: %v", t, m)
}

// smpError gives a strategic merge failure the status upstream's
// apiserver answers it with (interpretStrategicMergePatchError).
func smpError(err error) error {
	switch err {
	case errSMPBadJSONDoc, errBadPatchFormatForPrimitive, errBadPatchFormatForRetainKeys,
		errBadPatchFormatForSetOrder, errUnsupportedStrategicMergeFmt:
		return badRequest(err)
	case errNoListOfLists:
		return unprocessable(err)
	}
	return internal(err)
}

// mergeOptions are apimachinery's MergeOptions: applying a patch merges
// parallel lists and drops nulls that match nothing; merging two patches
// (inside CreateThreeWayMergePatch) keeps both.
type mergeOptions struct {
	mergeParallelList    bool
	ignoreUnmatchedNulls bool
}

// StrategicMergePatch applies a strategic merge patch to the original
// object, using schema for list merge keys and strategies.
func StrategicMergePatch(original, patchData []byte, schema Schema) ([]byte, error) {
	if schema.IsZero() {
		return nil, badRequest(errUnsupportedStrategicMergeFmt)
	}
	orig, err := decodeObject(original)
	if err != nil {
		return nil, badRequest(errSMPBadJSONDoc)
	}
	p, err := decodeObject(patchData)
	if err != nil {
		return nil, badRequest(err)
	}
	out, err := mergeMap(orig, p, schema.t, mergeOptions{mergeParallelList: true, ignoreUnmatchedNulls: true})
	if err != nil {
		return nil, smpError(err)
	}
	return marshal(out)
}

// kindOf tells JSON values' Go types apart, as reflect.TypeOf does.
type valueKind int

const (
	kindNull valueKind = iota
	kindBool
	kindInt
	kindFloat
	kindString
	kindMap
	kindSlice
	kindOther
)

func kindOf(v any) valueKind {
	switch v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case int64:
		return kindInt
	case float64:
		return kindFloat
	case string:
		return kindString
	case map[string]any:
		return kindMap
	case []any:
		return kindSlice
	}
	return kindOther
}

func mergeMap(original, patch map[string]any, s *schemaType, opts mergeOptions) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		return handleDirectiveInMergeMap(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeysDirective(original, patch, opts); err != nil {
		return nil, err
	}
	if err := mergeSetElementOrder(original, patch, s, opts); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		patchV := patch[k]
		isDeleteList := false
		if strings.HasPrefix(k, deleteFromPrimitiveListPrefix) {
			if !opts.mergeParallelList {
				// Merging two patches keeps the directive as it is.
				original[k] = patchV
				continue
			}
			key, err := extractKey(k, deleteFromPrimitiveListPrefix)
			if err != nil {
				return nil, err
			}
			k, isDeleteList = key, true
		}
		if patchV == nil {
			delete(original, k)
			if opts.ignoreUnmatchedNulls {
				continue
			}
		}
		origV, ok := original[k]
		if !ok || kindOf(origV) != kindOf(patchV) {
			// Nothing to merge with: the patch value, cleaned, replaces.
			if !isDeleteList {
				if opts.ignoreUnmatchedNulls {
					discardNulls(patchV)
				}
				setOrDrop(original, k, patchV)
			}
			continue
		}
		sub, meta := s.lookup(k)
		_, strategy := meta.strategy()
		var err error
		switch o := origV.(type) {
		case map[string]any:
			if strategy == replaceDirective {
				original[k] = patchV
			} else {
				original[k], err = mergeMap(o, patchV.(map[string]any), sub, opts)
			}
		case []any:
			original[k], err = mergeSliceHandler(o, patchV.([]any), sub, strategy, meta.mergeKey, isDeleteList, opts)
		default:
			setOrDrop(original, k, patchV)
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// setOrDrop stores a patch value without its directives, or drops the key
// when the value itself was a directive.
func setOrDrop(m map[string]any, k string, v any) {
	if clean, keep := removeDirectives(v); keep {
		m[k] = clean
	} else {
		delete(m, k)
	}
}

func handleDirectiveInMergeMap(directive any, patch map[string]any) (map[string]any, error) {
	switch directive {
	case replaceDirective:
		delete(patch, directiveMarker)
		return patch, nil
	case deleteDirective:
		return map[string]any{}, nil
	}
	return nil, errBadPatchType(directive, patch)
}

// extractKey returns the field a "$prefix/field" key names.
func extractKey(s, prefix string) (string, error) {
	parts := strings.SplitN(s, "/", 2)
	if len(parts) <= 1 || parts[0] != prefix {
		switch prefix {
		case deleteFromPrimitiveListPrefix:
			return "", errBadPatchFormatForPrimitive
		case setElementOrderPrefix:
			return "", errBadPatchFormatForSetOrder
		}
		return "", fmt.Errorf("fail to find unknown prefix %q in %s\n", prefix, s)
	}
	return parts[1], nil
}

// applyRetainKeysDirective drops the original's fields that a
// "$retainKeys" list leaves out.
func applyRetainKeysDirective(original, patch map[string]any, opts mergeOptions) error {
	retain, found := patch[retainKeysDirective]
	if !found {
		return nil
	}
	delete(patch, retainKeysDirective)
	if !opts.mergeParallelList {
		if prev, ok := original[retainKeysDirective]; ok {
			if !deepEqual(prev, retain) {
				return fmt.Errorf("%v and %v are not deep equal: this may happen when calculating the 3-way diff patch", prev, retain)
			}
		} else {
			original[retainKeysDirective] = retain
		}
		return nil
	}
	list, ok := retain.([]any)
	if !ok {
		return errBadPatchFormatForRetainKeys
	}
	kept := map[string]bool{}
	for _, v := range list {
		if s, ok := v.(string); ok {
			kept[s] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		if patch[k] == nil || strings.HasPrefix(k, deleteFromPrimitiveListPrefix) || strings.HasPrefix(k, setElementOrderPrefix) {
			continue
		}
		if !kept[k] {
			return errBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if !kept[k] {
			delete(original, k)
		}
	}
	return nil
}

// mergeSetElementOrder merges each list a "$setElementOrder/<field>"
// directive names and puts its items in the directive's order, items only
// the server knows keeping their places relative to the others.
func mergeSetElementOrder(original, patch map[string]any, s *schemaType, opts mergeOptions) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		if !strings.HasPrefix(key, setElementOrderPrefix) {
			continue
		}
		order := patch[key]
		if !opts.mergeParallelList {
			if prev, ok := original[key]; ok {
				if !deepEqual(prev, order) {
					return errBadPatchFormatForSetOrder
				}
			} else {
				original[key] = order
			}
		}
		delete(patch, key)

		orderList, ok := order.([]any)
		if !ok {
			return errBadArgType(sliceTypeName, order)
		}
		field, err := extractKey(key, setElementOrderPrefix)
		if err != nil {
			return err
		}
		origRaw, foundOrig := original[field]
		patchRaw, foundPatch := patch[field]
		var origList, patchList []any
		if foundOrig {
			if origList, ok = origRaw.([]any); !ok {
				return errBadArgType(sliceTypeName, origRaw)
			}
		}
		if foundPatch {
			if patchList, ok = patchRaw.([]any); !ok {
				return errBadArgType(sliceTypeName, patchRaw)
			}
		}
		sub, meta := s.lookup(field)
		_, strategy := meta.strategy()
		mergeKey := meta.mergeKey
		if err := validatePatchWithSetOrderList(patchList, orderList, mergeKey); err != nil {
			return err
		}

		var merged []any
		switch {
		case foundOrig && !foundPatch:
			merged = origList
		case !foundOrig && foundPatch:
			v, keep := removeDirectives(patchList)
			if !keep {
				continue
			}
			merged = v.([]any)
		case foundOrig && foundPatch:
			if merged, err = mergeSliceHandler(origList, patchList, sub, strategy, mergeKey, false, opts); err != nil {
				return err
			}
		default:
			continue
		}

		var inOrder, serverOnly []any
		if mergeKey == "" {
			if inOrder, serverOnly, err = partitionPrimitives(merged, orderList); err != nil {
				return err
			}
		} else if inOrder, serverOnly, err = partitionMaps(merged, orderList, mergeKey); err != nil {
			return err
		}
		kind, err := sliceElementType(origList, patchList)
		if err != nil {
			return err
		}
		all, err := normalizeElementOrder(inOrder, serverOnly, orderList, origList, mergeKey, kind)
		if err != nil {
			return err
		}
		original[field] = all
		delete(patch, field)
	}
	return nil
}

// validatePatchWithSetOrderList checks the patch list's items come in the
// order "$setElementOrder" gives.
func validatePatchWithSetOrderList(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	items := patchList
	if mergeKey != "" {
		var err error
		if items, _, err = extractToDeleteItems(patchList); err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(items) && oi < len(order) {
		if containsDirectiveMarker(items[pi]) {
			pi++
			continue
		}
		equal, err := mergeKeyValueEqual(items[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if equal {
			pi++
		}
		oi++
	}
	if pi < len(items) && oi >= len(order) {
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, setElementOrderPrefix, order)
	}
	return nil
}

func containsDirectiveMarker(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, found := m[directiveMarker]
	return found
}

func mergeKeyValueEqual(left, right any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return keyEqual(left, right), nil
	}
	l, ok := left.(map[string]any)
	if !ok {
		return false, errBadArgType(mapTypeName, left)
	}
	r, ok := right.(map[string]any)
	if !ok {
		return false, errBadArgType(mapTypeName, right)
	}
	lv, ok := l[mergeKey]
	if !ok {
		return false, errNoMergeKey(l, mergeKey)
	}
	rv, ok := r[mergeKey]
	if !ok {
		return false, errNoMergeKey(r, mergeKey)
	}
	return keyEqual(lv, rv), nil
}

// keyEqual compares merge key values and list scalars. Upstream compares
// them with ==, which panics on objects; those compare structurally here.
func keyEqual(a, b any) bool { return deepEqual(a, b) }

// removeDirectives strips "$patch" maps out of a value before it is
// stored; keep is false when the value itself was one.
func removeDirectives(v any) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t[directiveMarker]; ok {
			return nil, false
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if clean, keep := removeDirectives(t[k]); keep {
				t[k] = clean
			} else {
				delete(t, k)
			}
		}
		return t, true
	case []any:
		var out []any
		if t != nil {
			out = []any{}
		}
		for _, e := range t {
			if clean, keep := removeDirectives(e); keep {
				out = append(out, clean)
			}
		}
		return out, true
	}
	return v, true
}

// discardNulls drops null members from objects in a value, recursively.
func discardNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if t[k] == nil {
				delete(t, k)
			} else {
				discardNulls(t[k])
			}
		}
	case []any:
		for _, e := range t {
			discardNulls(e)
		}
	}
}

func mergeSliceHandler(original, patch []any, s *schemaType, strategy, mergeKey string, isDeleteList bool, opts mergeOptions) ([]any, error) {
	if strategy == mergeDirective || isDeleteList {
		return mergeSlice(original, patch, s, mergeKey, opts, isDeleteList)
	}
	return patch, nil
}

func mergeSlice(original, patch []any, s *schemaType, mergeKey string, opts mergeOptions, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	kind, err := sliceElementType(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if kind != kindMap {
		if opts.mergeParallelList && isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		both := make([]any, 0, len(original)+len(patch))
		both = append(both, original...)
		both = append(both, patch...)
		merged = deduplicateScalars(both)
	} else {
		if mergeKey == "" {
			return nil, fmt.Errorf("cannot merge lists without merge key for %s", "struct")
		}
		if original, patch, err = mergeSliceWithSpecialElements(original, patch, mergeKey); err != nil {
			return nil, err
		}
		if merged, err = mergeSliceWithoutSpecialElements(original, patch, mergeKey, s, opts); err != nil {
			return nil, err
		}
	}
	var inPatch, serverOnly []any
	if mergeKey == "" {
		inPatch, serverOnly, err = partitionPrimitives(merged, patch)
	} else {
		inPatch, serverOnly, err = partitionMaps(merged, patch, mergeKey)
	}
	if err != nil {
		return nil, err
	}
	return normalizeElementOrder(inPatch, serverOnly, patch, original, mergeKey, kind)
}

// mergeSliceWithSpecialElements applies "$patch: delete" and "$patch:
// replace" list elements, returning what is left to merge.
func mergeSliceWithSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	rest := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		directive, ok := m[directiveMarker]
		if !ok {
			rest = append(rest, v)
			continue
		}
		switch directive {
		case deleteDirective:
			value, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			var err error
			if original, err = deleteMatchingEntries(original, mergeKey, value); err != nil {
				return nil, nil, err
			}
		case replaceDirective:
			replace = true
		case mergeDirective:
			return nil, nil, fmt.Errorf("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errBadPatchType(directive, m)
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// deleteMatchingEntries removes the items with the merge key value,
// compacting within the list's own backing array as upstream's in-place
// removal does: the caller's view of the original list (used for
// ordering) sees the shifted items and any items appended after.
func deleteMatchingEntries(original []any, mergeKey string, value any) ([]any, error) {
	kept := original[:0]
	for _, v := range original {
		m := v.(map[string]any) // every item is a map: sliceElementType checked
		if mv, ok := m[mergeKey]; ok && keyEqual(mv, value) {
			continue
		}
		kept = append(kept, v)
	}
	return kept, nil
}

func mergeSliceWithoutSpecialElements(original, patch []any, mergeKey string, s *schemaType, opts mergeOptions) ([]any, error) {
	byKey := newListIndex(original, mergeKeyOf(mergeKey))
	for _, v := range patch {
		m := v.(map[string]any)
		value, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		i := byKey.find(value)
		if i < 0 {
			original = append(original, v)
			byKey.appended(original)
			continue
		}
		merged, err := mergeMap(original[i].(map[string]any), m, s, opts)
		if err != nil {
			return nil, err
		}
		original[i] = merged
		byKey.replaced(original, i, value)
	}
	return original, nil
}

func findMapInSlice(list []any, key string, value any) (map[string]any, int, bool, error) {
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, 0, false, fmt.Errorf("value for key %v is not a map", i)
		}
		if mv, ok := m[key]; ok && keyEqual(mv, value) {
			return m, i, true, nil
		}
	}
	return nil, 0, false, nil
}

func deleteFromSlice(current, toDelete []any) []any {
	del := newListIndex(toDelete, identity)
	out := make([]any, 0, len(current))
	for _, v := range current {
		if del.find(v) < 0 {
			out = append(out, v)
		}
	}
	return out
}

// deduplicateScalars drops repeated values the way upstream does (a
// repeat's slot takes the last element), which decides later ordering.
// That walk is quadratic, so very long lists keep first occurrences.
func deduplicateScalars(s []any) []any {
	if !hasDuplicates(s) {
		return s
	}
	if len(s) > quadraticLimit {
		seen := newListIndex(nil, identity)
		out := s[:0]
		for _, v := range s {
			if seen.find(v) < 0 {
				out = append(out, v)
				seen.add(v)
			}
		}
		return out
	}
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if keyEqual(s[i], s[j]) {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

// partitionPrimitives splits list into the values present in by and the
// rest, each keeping list's order.
func partitionPrimitives(list, by []any) ([]any, []any, error) {
	present := newListIndex(by, identity)
	in := make([]any, 0, len(list))
	rest := make([]any, 0, len(list))
	for _, v := range list {
		switch v.(type) {
		case map[string]any, []any:
			// Upstream hashes these and panics; refuse instead.
			return nil, nil, errBadPatchFormatForSetOrder
		}
		if present.find(v) >= 0 {
			in = append(in, v)
		} else {
			rest = append(rest, v)
		}
	}
	return in, rest, nil
}

// partitionMaps splits list into the maps whose merge key appears in by
// and the rest.
func partitionMaps(list, by []any, mergeKey string) ([]any, []any, error) {
	allMaps := true
	for _, v := range by {
		if _, ok := v.(map[string]any); !ok {
			allMaps = false
		}
	}
	present := newListIndex(by, mergeKeyOf(mergeKey))
	in := make([]any, 0, len(list))
	rest := make([]any, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(mapTypeName, v)
		}
		value, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		found := false
		if allMaps {
			found = present.find(value) >= 0
		} else {
			// Keep upstream's error for a non-map met before a match.
			var err error
			if _, _, found, err = findMapInSlice(by, mergeKey, value); err != nil {
				return nil, nil, err
			}
		}
		if found {
			in = append(in, v)
		} else {
			rest = append(rest, v)
		}
	}
	return in, rest, nil
}

// normalizeElementOrder orders the patch's items as the patch does and
// the server-only items as the server had them, then interleaves them.
func normalizeElementOrder(patch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind valueKind) ([]any, error) {
	patch, err := normalizeSliceOrder(patch, patchOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	return mergeSortedSlice(serverOnly, patch, serverOrder, mergeKey, kind), nil
}

// mergeSortedSlice interleaves two ordered lists: a server-only item goes
// first only when both items are in the server's order and it is earlier.
func mergeSortedSlice(left, right, serverOrder []any, mergeKey string, kind valueKind) []any {
	order := newListIndex(serverOrder, orderKeyOf(mergeKey, kind))
	key := orderKeyOf(mergeKey, kind)
	out := make([]any, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) || j < len(right) {
		switch {
		case i >= len(left):
			out = append(out, right[j])
			j++
		case j >= len(right):
			out = append(out, left[i])
			i++
		default:
			li := order.find(key(left[i]))
			ri := order.find(key(right[j]))
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, left[i])
				i++
			} else {
				out = append(out, right[j])
				j++
			}
		}
	}
	return out
}

// orderKeyOf is what ordering compares items by: the merge key value
// for maps (nil when an item is not a map), the item itself otherwise.
func orderKeyOf(mergeKey string, kind valueKind) func(any) any {
	if kind != kindMap {
		return identity
	}
	return func(item any) any {
		m, ok := item.(map[string]any)
		if !ok {
			return nil
		}
		return m[mergeKey]
	}
}

// extractToDeleteItems splits "$patch: delete" items from the others.
func extractToDeleteItems(list []any) ([]any, []any, error) {
	var keep, del []any
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(mapTypeName, v)
		}
		if d, ok := m[directiveMarker]; ok && d == deleteDirective {
			del = append(del, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, del, nil
}

func validateMergeKeyInLists(mergeKey string, lists ...[]any) error {
	for _, list := range lists {
		for _, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				return errBadArgType(mapTypeName, item)
			}
			if _, ok := m[mergeKey]; !ok {
				return errNoMergeKey(m, mergeKey)
			}
		}
	}
	return nil
}

// normalizeSliceOrder sorts items by their place in order (stably, with
// upstream's comparator), "$patch: delete" items last.
func normalizeSliceOrder(items, order []any, mergeKey string, kind valueKind) ([]any, error) {
	var del []any
	if kind == kindMap {
		if err := validateMergeKeyInLists(mergeKey, items, order); err != nil {
			return nil, err
		}
		var err error
		if items, del, err = extractToDeleteItems(items); err != nil {
			return nil, err
		}
	}
	orderIdx := newListIndex(order, orderKeyOf(mergeKey, kind))
	key := orderKeyOf(mergeKey, kind)
	pos := make([]int, len(items))
	for i, it := range items {
		pos[i] = orderIdx.find(key(it))
	}
	// Upstream's comparator: items both found sort by their place; any
	// other pair counts as "less". Sorting an index slice keeps each
	// item's looked-up place with it.
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		pi, pj := pos[idx[i]], pos[idx[j]]
		if pi >= 0 && pj >= 0 {
			return pi < pj
		}
		return true
	})
	sorted := make([]any, len(items))
	for i, k := range idx {
		sorted[i] = items[k]
	}
	items = sorted
	return append(items, del...), nil
}

// sliceElementType returns the one type every element of the lists has.
func sliceElementType(lists ...[]any) (valueKind, error) {
	seen := false
	var prev valueKind
	for _, list := range lists {
		for _, v := range list {
			k := kindOf(v)
			if !seen {
				seen, prev = true, k
				if k == kindSlice {
					return 0, errNoListOfLists
				}
			} else if k != prev {
				return 0, fmt.Errorf("list element types are not identical: %v", fmt.Sprint(lists))
			}
		}
	}
	if !seen {
		return 0, fmt.Errorf("no elements in any of the given slices")
	}
	return prev, nil
}
