package api

import "strings"

// GroupVersionKind names a kind in one API version.
type GroupVersionKind struct {
	Group, Version, Kind string
}

// APIVersion is the apiVersion field's spelling: "v1" or "apps/v1".
func (g GroupVersionKind) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// ParseAPIVersion splits "apps/v1" into group and version; "v1" is the core group.
func ParseAPIVersion(apiVersion string) (group, version string) {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// kindEntry is one row of the scheme: a served apiVersion/kind and its Go type.
type kindEntry struct {
	gvk GroupVersionKind
	new func() Object
}

// schemeIndex is built once from kindTable and only read afterwards.
var schemeIndex = func() map[GroupVersionKind]func() Object {
	m := make(map[GroupVersionKind]func() Object, len(kindTable))
	for _, e := range kindTable {
		m[e.gvk] = e.new
	}
	return m
}()

// New returns an empty object of the kind, with TypeMeta set, or false when
// the apiVersion/kind pair is not served.
func New(apiVersion, kind string) (Object, bool) {
	g, v := ParseAPIVersion(apiVersion)
	f, ok := schemeIndex[GroupVersionKind{g, v, kind}]
	if !ok {
		return nil, false
	}
	obj := f()
	*obj.GetTypeMeta() = TypeMeta{APIVersion: apiVersion, Kind: kind}
	return obj, true
}

// Kinds lists every served apiVersion/kind in a fixed order.
func Kinds() []GroupVersionKind {
	out := make([]GroupVersionKind, len(kindTable))
	for i, e := range kindTable {
		out[i] = e.gvk
	}
	return out
}
