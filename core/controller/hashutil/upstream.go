package hashutil

import (
	"strings"
	"sync"
)

// upstreamTypes is the layout of every Go type reachable from
// v1.PodTemplateSpec, keyed by its reflect type string: the structs and
// named string types of zz_upstream_types.go, the pointer, slice and map
// types their fields name, and the scalars. It is read-only, and built on
// first use.
var upstreamTypes = sync.OnceValue(func() map[string]upstreamType {
	types := map[string]upstreamType{
		"bool":               {kind: kindBool},
		"int32":              {kind: kindInt},
		"int64":              {kind: kindInt},
		"uint8":              {kind: kindUint},
		"string":             {kind: kindString},
		"types.UID":          {kind: kindString},
		"intstr.IntOrString": {kind: kindIntOrString},
		"resource.Quantity":  {kind: kindQuantity},
		"v1.Time":            {kind: kindTime},
		"v1.ResourceList":    {kind: kindMap, key: "v1.ResourceName", elem: "resource.Quantity"},
		// ResourceList's underlying type, which no field names.
		"map[v1.ResourceName]resource.Quantity": {kind: kindMap, key: "v1.ResourceName", elem: "resource.Quantity"},
	}
	for _, name := range strings.Fields(upstreamStringTypes) {
		types[name] = upstreamType{kind: kindString}
	}
	for _, line := range strings.Split(upstreamStructs, "\n") {
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		t := upstreamType{kind: kindStruct, fields: make([]upstreamField, 0, len(words)-1)}
		for _, w := range words[1:] {
			name, rest, _ := strings.Cut(w, ":")
			json, typ, _ := strings.Cut(rest, ":")
			if json == "" {
				json = strings.ToLower(name[:1]) + name[1:]
			}
			t.fields = append(t.fields, upstreamField{name, json, typ})
			addComposite(types, typ)
		}
		types[words[0]] = t
	}
	return types
})

// addComposite adds the pointer, slice and map types that a field's type
// string is made of, outermost first.
func addComposite(types map[string]upstreamType, typ string) {
	for {
		switch {
		case strings.HasPrefix(typ, "*"):
			types[typ] = upstreamType{kind: kindPtr, elem: typ[1:]}
			typ = typ[1:]
		case strings.HasPrefix(typ, "[]"):
			types[typ] = upstreamType{kind: kindSlice, elem: typ[2:]}
			typ = typ[2:]
		case strings.HasPrefix(typ, "map["):
			key, elem, _ := strings.Cut(typ[len("map["):], "]")
			types[typ] = upstreamType{kind: kindMap, key: key, elem: elem}
			typ = elem
		default:
			return
		}
	}
}
