package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// specDiff renders old → new in the shape of go-cmp's Diff, which upstream
// appends to "pod updates may not change fields …" and similar messages:
// changed fields as "-"/"+" lines inside their enclosing values, runs of
// unchanged fields folded into "... // N identical fields". go-cmp's exact
// spacing is deliberately unstable, so this is a faithful sketch of it, not
// a byte-for-byte copy.
func specDiff(old, new any) string {
	a, b := reflect.ValueOf(old), reflect.ValueOf(new)
	var sb strings.Builder
	sb.WriteString("  " + typeName(a.Type()) + "{\n")
	diffStruct(&sb, a, b, 1)
	sb.WriteString("  }\n")
	return sb.String()
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeName(t.Elem())
	case reflect.Slice:
		return "[]" + typeName(t.Elem())
	case reflect.Map:
		return "map[" + typeName(t.Key()) + "]" + typeName(t.Elem())
	}
	s := t.String()
	if strings.HasPrefix(s, "api.") {
		return "core." + s[4:]
	}
	return s
}

func line(sb *strings.Builder, mark string, depth int, text string) {
	sb.WriteString(mark + " " + strings.Repeat("\t", depth) + text + "\n")
}

func diffStruct(sb *strings.Builder, a, b reflect.Value, depth int) {
	same := 0
	flush := func() {
		switch same {
		case 0:
		case 1:
			line(sb, " ", depth, "... // 1 identical field")
		default:
			line(sb, " ", depth, fmt.Sprintf("... // %d identical fields", same))
		}
		same = 0
	}
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		if api.SemanticValueEqual(fa, fb) {
			same++
			continue
		}
		flush()
		diffValue(sb, f.Name+": ", fa, fb, depth)
	}
	flush()
}

// diffValue prints one differing value, descending into structs, pointers
// to structs and equally long slices so the change is pinpointed.
func diffValue(sb *strings.Builder, label string, a, b reflect.Value, depth int) {
	t := a.Type()
	switch {
	case t == quantityType:
	case t.Kind() == reflect.Struct:
		line(sb, " ", depth, label+typeName(t)+"{")
		diffStruct(sb, a, b, depth+1)
		line(sb, " ", depth, "},")
		return
	case t.Kind() == reflect.Pointer && !a.IsNil() && !b.IsNil() && t.Elem().Kind() == reflect.Struct && t.Elem() != quantityType:
		line(sb, " ", depth, label+"&"+typeName(t.Elem())+"{")
		diffStruct(sb, a.Elem(), b.Elem(), depth+1)
		line(sb, " ", depth, "},")
		return
	case t.Kind() == reflect.Slice && a.Len() == b.Len() && a.Len() > 0:
		line(sb, " ", depth, label+typeName(t)+"{")
		same := 0
		flush := func() {
			if same == 1 {
				line(sb, " ", depth+1, "... // 1 identical element")
			} else if same > 1 {
				line(sb, " ", depth+1, fmt.Sprintf("... // %d identical elements", same))
			}
			same = 0
		}
		for i := 0; i < a.Len(); i++ {
			if api.SemanticValueEqual(a.Index(i), b.Index(i)) {
				same++
				continue
			}
			flush()
			if a.Index(i).Kind() == reflect.Struct && a.Index(i).Type() != quantityType {
				line(sb, " ", depth+1, "{")
				diffStruct(sb, a.Index(i), b.Index(i), depth+2)
				line(sb, " ", depth+1, "},")
			} else {
				line(sb, "-", depth+1, formatDiffValue(a.Index(i), false)+",")
				line(sb, "+", depth+1, formatDiffValue(b.Index(i), false)+",")
			}
		}
		flush()
		line(sb, " ", depth, "},")
		return
	}
	line(sb, "-", depth, label+formatDiffValue(a, true)+",")
	line(sb, "+", depth, label+formatDiffValue(b, true)+",")
}

// formatDiffValue prints a value as go-cmp does: zero fields left out,
// pointers as &v, the type named only at the top.
func formatDiffValue(v reflect.Value, top bool) string {
	if !v.IsValid() {
		return "nil"
	}
	t := v.Type()
	if t == quantityType {
		return fmt.Sprintf("%q", v.Interface().(resource.Quantity).String())
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return "&" + formatDiffValue(v.Elem(), top)
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	case reflect.Slice:
		if v.IsNil() {
			return "nil"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = formatDiffValue(v.Index(i), false)
		}
		prefix := ""
		if top {
			prefix = typeName(t)
		}
		return prefix + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Map:
		if v.IsNil() {
			return "nil"
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = formatDiffValue(k, false) + ": " + formatDiffValue(v.MapIndex(k), false)
		}
		prefix := ""
		if top {
			prefix = typeName(t)
		}
		return prefix + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Struct:
		var parts []string
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || v.Field(i).IsZero() {
				continue
			}
			parts = append(parts, f.Name+": "+formatDiffValue(v.Field(i), false))
		}
		prefix := ""
		if top {
			prefix = typeName(t)
		}
		return prefix + "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v.Interface())
}
