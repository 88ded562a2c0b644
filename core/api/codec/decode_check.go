package codec

import (
	"encoding/base64"
	"encoding/json"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The API server decodes with sigs.k8s.io/json: case-sensitive field names,
// type errors naming the innermost struct and the path of JSON field names
// (`json: cannot unmarshal array into Go struct field
// ObjectMeta.metadata.labels of type map[string]string`), and in strict mode
// every unknown or duplicate field with its full path. The walk below applies
// those rules to the JSON tree and the Go type together, and writes the JSON
// that encoding/json then decodes: unknown fields dropped, so that
// encoding/json's case-insensitive matching never sees them.

type fieldInfo struct {
	name   string
	index  []int
	typ    reflect.Type
	tagged bool
}

type typeWalker struct {
	strict bool
	v2     bool // autoscaling/v2 types print as v2.X, as upstream's package is v2

	saved error // first type error; decoding goes on, as encoding/json's does
	fatal error // an UnmarshalJSON error, which stops decoding

	strictErrs []string
	seenStrict map[string]bool

	errStruct  reflect.Type // innermost struct whose field is being decoded
	fieldStack []string     // JSON names of the struct fields on the way
	strictPath []string     // the same with map keys and [i], as strict errors spell paths

	out    []byte
	fields map[reflect.Type][]fieldInfo
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// typeError is encoding/json's UnmarshalTypeError, spelled with upstream's
// type names.
type typeError struct {
	value, typ, strct, field string
}

func (e *typeError) Error() string {
	if e.strct != "" || e.field != "" {
		return "json: cannot unmarshal " + e.value + " into Go struct field " + e.strct + "." + e.field + " of type " + e.typ
	}
	return "json: cannot unmarshal " + e.value + " into Go value of type " + e.typ
}

// hpaV2Types are the types upstream declares in autoscaling/v2.
var hpaV2Types = map[string]bool{
	"HorizontalPodAutoscaler": true, "HorizontalPodAutoscalerSpec": true, "CrossVersionObjectReference": true,
	"MetricSpec": true, "ObjectMetricSource": true, "PodsMetricSource": true, "ResourceMetricSource": true,
	"ContainerResourceMetricSource": true, "ExternalMetricSource": true, "MetricIdentifier": true,
	"MetricTarget": true, "HorizontalPodAutoscalerBehavior": true, "HPAScalingRules": true,
	"HPAScalingPolicy": true, "HorizontalPodAutoscalerStatus": true, "HorizontalPodAutoscalerCondition": true,
	"MetricStatus": true, "ObjectMetricStatus": true, "PodsMetricStatus": true, "ResourceMetricStatus": true,
	"ContainerResourceMetricStatus": true, "ExternalMetricStatus": true, "MetricValueStatus": true,
}

// structName is upstream's name for one of our struct types.
func (w *typeWalker) structName(t reflect.Type) string {
	return strings.TrimSuffix(t.Name(), "V1")
}

// typeName is reflect's Type.String() with upstream's package names:
// kubeplay's api types live in upstream's v1 packages.
func (w *typeWalker) typeName(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.String()
		}
		pkg := path.Base(t.PkgPath())
		name := t.Name()
		if pkg == "api" {
			pkg = "v1"
			if w.v2 && hpaV2Types[name] {
				pkg = "v2"
			}
			name = w.structName(t)
		}
		return pkg + "." + name
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + w.typeName(t.Elem())
	case reflect.Slice:
		return "[]" + w.typeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + w.typeName(t.Elem())
	case reflect.Map:
		return "map[" + w.typeName(t.Key()) + "]" + w.typeName(t.Elem())
	}
	return t.String()
}

func (w *typeWalker) typeErr(value string, t reflect.Type) {
	if w.saved != nil {
		return
	}
	e := &typeError{value: value, typ: w.typeName(t)}
	if w.errStruct != nil || len(w.fieldStack) > 0 {
		if w.errStruct != nil {
			e.strct = w.structName(w.errStruct)
		}
		e.field = strings.Join(w.fieldStack, ".")
	}
	w.saved = e
}

func (w *typeWalker) strictErr(kind, key string) {
	p := key
	if len(w.strictPath) > 0 {
		p = strings.Join(w.strictPath, "") + "." + key
	}
	msg := kind + " " + strconv.Quote(p)
	if w.seenStrict[msg] || len(w.strictErrs) >= 100 {
		return
	}
	if w.seenStrict == nil {
		w.seenStrict = map[string]bool{}
	}
	w.seenStrict[msg] = true
	w.strictErrs = append(w.strictErrs, msg)
}

func (w *typeWalker) pushKey(key string) {
	if len(w.strictPath) > 0 {
		w.strictPath = append(w.strictPath, ".", key)
	} else {
		w.strictPath = append(w.strictPath, key)
	}
}

// walk checks v against t and appends the JSON to decode to w.out.
func (w *typeWalker) walk(v *jsonValue, t reflect.Type) {
	if w.fatal != nil {
		return
	}
	// Follow pointers; null sets a pointer to nil, and a type with its own
	// UnmarshalJSON takes the raw value (null included, unless behind a pointer).
	for {
		if t.Kind() == reflect.Pointer {
			if v.kind == jsonNull {
				w.out = append(w.out, v.raw...)
				return
			}
			if t.Implements(unmarshalerType) {
				w.callUnmarshaler(v, t.Elem())
				return
			}
			t = t.Elem()
			continue
		}
		if t.Name() != "" && reflect.PointerTo(t).Implements(unmarshalerType) {
			w.callUnmarshaler(v, t)
			return
		}
		break
	}
	switch v.kind {
	case jsonNull:
		w.out = append(w.out, v.raw...)
	case jsonObject:
		w.object(v, t)
	case jsonArray:
		w.array(v, t)
	default:
		w.literal(v, t)
	}
}

func (w *typeWalker) callUnmarshaler(v *jsonValue, t reflect.Type) {
	w.out = append(w.out, v.raw...)
	u := reflect.New(t).Interface().(json.Unmarshaler)
	err := u.UnmarshalJSON(v.raw)
	if err == nil {
		return
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		e := &typeError{value: te.Value, typ: w.typeName(te.Type), strct: te.Struct, field: te.Field}
		if w.errStruct != nil || len(w.fieldStack) > 0 {
			e.strct, e.field = "", strings.Join(w.fieldStack, ".")
			if w.errStruct != nil {
				e.strct = w.structName(w.errStruct)
			}
		}
		err = e
	}
	w.fatal = err
}

func (w *typeWalker) literal(v *jsonValue, t reflect.Type) {
	w.out = append(w.out, v.raw...)
	switch v.kind {
	case jsonString:
		switch {
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			if _, err := base64.StdEncoding.DecodeString(v.str); err != nil && w.saved == nil {
				w.saved = err
			}
		case t.Kind() == reflect.String:
		case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		default:
			w.typeErr("string", t)
		}
	case jsonBool:
		switch {
		case t.Kind() == reflect.Bool:
		case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		default:
			w.typeErr("bool", t)
		}
	case jsonNumber:
		s := v.str
		switch t.Kind() {
		case reflect.Interface:
			if t.NumMethod() != 0 {
				w.typeErr("number", t)
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || reflect.Zero(t).OverflowInt(n) {
				w.typeErr("number "+s, t)
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || reflect.Zero(t).OverflowUint(n) {
				w.typeErr("number "+s, t)
			}
		case reflect.Float32, reflect.Float64:
			n, err := strconv.ParseFloat(s, t.Bits())
			if err != nil || reflect.Zero(t).OverflowFloat(n) {
				w.typeErr("number "+s, t)
			}
		case reflect.String:
			if t != reflect.TypeOf(json.Number("")) {
				w.typeErr("number", t)
			}
		default:
			w.typeErr("number", t)
		}
	}
}

func (w *typeWalker) array(v *jsonValue, t reflect.Type) {
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			w.out = append(w.out, v.raw...)
			return
		}
		fallthrough
	default:
		w.typeErr("array", t)
		w.out = append(w.out, "null"...)
		return
	case reflect.Slice, reflect.Array:
	}
	depth := len(w.strictPath)
	w.out = append(w.out, '[')
	for i, x := range v.items {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.strictPath = append(w.strictPath[:depth], "[", strconv.Itoa(i), "]")
		w.walk(x, t.Elem())
	}
	w.strictPath = w.strictPath[:depth]
	w.out = append(w.out, ']')
}

func (w *typeWalker) object(v *jsonValue, t reflect.Type) {
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			w.out = append(w.out, v.raw...)
			return
		}
	case reflect.Map:
		w.mapObject(v, t)
		return
	case reflect.Struct:
		w.structObject(v, t)
		return
	}
	w.typeErr("object", t)
	w.out = append(w.out, "null"...)
}

func (w *typeWalker) mapObject(v *jsonValue, t reflect.Type) {
	kt := t.Key()
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		w.typeErr("object", t)
		w.out = append(w.out, "null"...)
		return
	}
	depth := len(w.strictPath)
	seen := map[string]bool{}
	w.out = append(w.out, '{')
	for i, m := range v.members {
		if w.strict {
			if seen[m.key] {
				w.strictErr("duplicate field", m.key)
			}
			seen[m.key] = true
		}
		w.pushKey(m.key)
		switch kt.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(m.key, 10, 64)
			if err != nil || reflect.Zero(kt).OverflowInt(n) {
				w.typeErr("number "+m.key, kt)
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n, err := strconv.ParseUint(m.key, 10, 64)
			if err != nil || reflect.Zero(kt).OverflowUint(n) {
				w.typeErr("number "+m.key, kt)
			}
		}
		if i > 0 {
			w.out = append(w.out, ',')
		}
		w.out = appendJSONString(w.out, m.key)
		w.out = append(w.out, ':')
		w.walk(m.value, t.Elem())
		w.strictPath = w.strictPath[:depth]
	}
	w.out = append(w.out, '}')
}

func (w *typeWalker) structObject(v *jsonValue, t reflect.Type) {
	fields := w.structFields(t)
	depth := len(w.strictPath)
	var seen []bool
	if w.strict {
		seen = make([]bool, len(fields))
	}
	w.out = append(w.out, '{')
	first := true
	for _, m := range v.members {
		fi := -1
		for i := range fields {
			if fields[i].name == m.key {
				fi = i
				break
			}
		}
		if fi < 0 {
			if w.strict {
				w.strictErr("unknown field", m.key)
			}
			continue
		}
		f := fields[fi]
		if w.strict {
			if seen[fi] {
				w.strictErr("duplicate field", f.name)
			}
			seen[fi] = true
		}
		if !first {
			w.out = append(w.out, ',')
		}
		first = false
		w.out = appendJSONString(w.out, m.key)
		w.out = append(w.out, ':')
		savedStruct, stackLen := w.errStruct, len(w.fieldStack)
		w.fieldStack = append(w.fieldStack, f.name)
		w.errStruct = t
		w.pushKey(f.name)
		w.walk(m.value, f.typ)
		w.errStruct = savedStruct
		w.fieldStack = w.fieldStack[:stackLen]
		w.strictPath = w.strictPath[:depth]
	}
	w.out = append(w.out, '}')
}

// structFields lists the JSON fields of a struct as encoding/json sees
// them: embedded structs without a name are flattened, the shallowest field
// wins a name, and a tie is broken by a tag or else drops the name.
func (w *typeWalker) structFields(t reflect.Type) []fieldInfo {
	if fs, ok := w.fields[t]; ok {
		return fs
	}
	type candidate struct {
		fieldInfo
		depth int
	}
	var all []candidate
	var visit func(t reflect.Type, index []int, seen map[reflect.Type]bool)
	visit = func(t reflect.Type, index []int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				visit(ft, idx, seen)
				continue
			}
			tagged := name != ""
			if name == "" {
				name = sf.Name
			}
			all = append(all, candidate{fieldInfo{name: name, index: idx, typ: sf.Type, tagged: tagged}, len(idx)})
		}
	}
	visit(t, nil, map[reflect.Type]bool{})
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].name != all[b].name {
			return all[a].name < all[b].name
		}
		if all[a].depth != all[b].depth {
			return all[a].depth < all[b].depth
		}
		return all[a].tagged && !all[b].tagged
	})
	var out []fieldInfo
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		group := all[i:j]
		if len(group) == 1 || group[1].depth > group[0].depth || group[0].tagged && !group[1].tagged {
			out = append(out, group[0].fieldInfo)
		}
		i = j
	}
	if w.fields == nil {
		w.fields = map[reflect.Type][]fieldInfo{}
	}
	w.fields[t] = out
	return out
}
