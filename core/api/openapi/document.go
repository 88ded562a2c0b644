package openapi

import "sort"

// The JSON shapes below are those upstream's OpenAPI v3 documents use, so
// the real kubectl reads them as it reads a real cluster's: a field that
// refers to a definition wraps the $ref in allOf beside its own description;
// list items and map values refer to it directly.

const refPrefix = "#/components/schemas/"

// Components returns components.schemas for a group version's document: the
// definitions of the given kinds and every definition they reach.
func (s *Schema) Components(kinds []GVK) map[string]any {
	out := map[string]any{}
	var add func(d *Definition)
	add = func(d *Definition) {
		if _, ok := out[d.Name]; ok {
			return
		}
		out[d.Name] = d.JSON()
		for _, f := range d.Fields {
			for t := f.Type; t != nil; t = t.Elem {
				if t.Ref != nil {
					add(t.Ref)
				}
			}
		}
	}
	for _, g := range kinds {
		if d, ok := s.ForKind(g); ok {
			add(d)
		}
	}
	return out
}

// JSON is the definition as an OpenAPI v3 schema object.
func (d *Definition) JSON() map[string]any {
	m := map[string]any{}
	if d.Description != "" {
		m["description"] = d.Description
	}
	if d.Type != "" {
		m["type"] = d.Type
	}
	if d.Format != "" {
		m["format"] = d.Format
	}
	if len(d.OneOf) > 0 {
		var one []any
		for _, t := range d.OneOf {
			one = append(one, map[string]any{"type": t})
		}
		m["oneOf"] = one
	}
	if len(d.GVKs) > 0 {
		var gvks []any
		for _, g := range d.GVKs {
			gvks = append(gvks, map[string]any{"group": g.Group, "version": g.Version, "kind": g.Kind})
		}
		m["x-kubernetes-group-version-kind"] = gvks
	}
	if len(d.Fields) > 0 {
		props := map[string]any{}
		var required []any
		for _, f := range d.Fields {
			props[f.Name] = f.JSON()
			if f.Required {
				required = append(required, f.Name)
			}
		}
		m["properties"] = props
		if required != nil {
			m["required"] = required
		}
	}
	return m
}

// JSON is the field as an OpenAPI v3 property.
func (f *Field) JSON() map[string]any {
	var m map[string]any
	if f.Type.Ref != nil {
		m = map[string]any{"allOf": []any{ref(f.Type.Ref)}}
	} else {
		m = f.Type.json()
	}
	if f.Description != "" {
		m["description"] = f.Description
	}
	if len(f.Enum) > 0 {
		enum := make([]any, len(f.Enum))
		for i, e := range f.Enum {
			enum[i] = e
		}
		m["enum"] = enum
	}
	if f.PatchStrategy != "" {
		m["x-kubernetes-patch-strategy"] = f.PatchStrategy
	}
	if f.MergeKey != "" {
		m["x-kubernetes-patch-merge-key"] = f.MergeKey
	}
	return m
}

func ref(d *Definition) map[string]any { return map[string]any{"$ref": refPrefix + d.Name} }

func (t *Type) json() map[string]any {
	switch {
	case t.Ref != nil:
		return ref(t.Ref)
	case t.Elem != nil && t.Map:
		return map[string]any{"type": "object", "additionalProperties": t.Elem.json()}
	case t.Elem != nil:
		return map[string]any{"type": "array", "items": t.Elem.json()}
	}
	m := map[string]any{"type": t.Primitive}
	if t.Format != "" {
		m["format"] = t.Format
	}
	return m
}

// KindsOf lists the kinds whose definitions are in the schema, sorted.
func (s *Schema) KindsOf(group, version string) []GVK {
	var out []GVK
	for _, n := range s.names {
		for _, g := range s.defs[n].GVKs {
			if g.Group == group && g.Version == version {
				out = append(out, g)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}
