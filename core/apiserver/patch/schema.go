package patch

// Schema is the strategic merge patch metadata of one type: for each
// field that has it, the field's patch strategies and merge key (the
// patchStrategy and patchMergeKey tags of upstream's k8s.io/api types)
// and the schema of the field's type (of its elements, for a list).
//
// A field the schema does not list is a plain field: objects merge key by
// key and lists are replaced. The zero Schema describes no type at all;
// KindSchema returns it for kinds kubeplay does not serve, and
// CreateThreeWayMergePatch then falls back to JSON merge semantics, as
// kubectl does for custom resources.
type Schema struct{ t *schemaType }

// IsZero reports whether the schema describes no type.
func (s Schema) IsZero() bool { return s.t == nil }

// Field returns the schema of a field's type (of its elements, for a
// list); it is the zero Schema's child when the field is plain.
func (s Schema) Field(name string) Schema {
	sub, _ := s.t.lookup(name)
	return Schema{sub}
}

// MergeKey returns the field's patch merge key and patch strategies, as
// upstream's struct tags give them ("" and nil for a plain field).
func (s Schema) MergeKey(name string) (mergeKey string, strategies []string) {
	_, m := s.t.lookup(name)
	return m.mergeKey, m.strategies
}

// schemaType is one Go type's patch metadata.
type schemaType struct {
	fields map[string]fieldMeta
}

// fieldMeta is one struct field's tags and the schema of its type.
type fieldMeta struct {
	strategies []string
	mergeKey   string
	t          *schemaType
}

// lookup returns a field's metadata; nil-safe, and a plain field has none.
func (t *schemaType) lookup(name string) (*schemaType, fieldMeta) {
	if t == nil {
		return nil, fieldMeta{}
	}
	m := t.fields[name]
	return m.t, m
}

// strategy splits a field's strategies into whether the field carries
// retainKeys and its other strategy ("merge", "replace" or ""), as
// upstream's extractRetainKeysPatchStrategy does.
func (m fieldMeta) strategy() (retainKeys bool, strategy string) {
	for _, s := range m.strategies {
		if s == retainKeysStrategy {
			retainKeys = true
		} else {
			strategy = s
		}
	}
	return retainKeys, strategy
}

// Table builders: a field's tags wrapped around the schema of its type.

func object(fields map[string]fieldMeta) *schemaType { return &schemaType{fields: fields} }

// nested is a field with no tags whose type has tagged fields below it.
func nested(t *schemaType) fieldMeta { return fieldMeta{t: t} }

// mergeBy is patchStrategy:"merge" patchMergeKey:key.
func mergeBy(key string, elem *schemaType) fieldMeta {
	return fieldMeta{strategies: []string{mergeDirective}, mergeKey: key, t: elem}
}

// mergeByRetainingKeys is patchStrategy:"merge,retainKeys" patchMergeKey:key.
func mergeByRetainingKeys(key string, elem *schemaType) fieldMeta {
	return fieldMeta{strategies: []string{mergeDirective, retainKeysStrategy}, mergeKey: key, t: elem}
}

// mergeSet is patchStrategy:"merge" on a list of scalars.
func mergeSet() fieldMeta { return fieldMeta{strategies: []string{mergeDirective}} }

// retainKeys is patchStrategy:"retainKeys".
func retainKeys(t *schemaType) fieldMeta {
	return fieldMeta{strategies: []string{retainKeysStrategy}, t: t}
}

// replaced is patchStrategy:"replace".
func replaced() fieldMeta { return fieldMeta{strategies: []string{replaceDirective}} }
