// Package labels is label sets and selectors: kubectl's -l syntax
// (a=b, a!=b, a in (x,y), a notin (x), a, !a, a>1) and LabelSelector
// objects, matched against labels as upstream matches them.
package labels

import (
	"sort"
	"strings"
)

// Labels is what a selector reads.
type Labels interface {
	Has(key string) bool
	Get(key string) string
}

// Set is a map of labels.
type Set map[string]string

// Has reports whether the key is present.
func (s Set) Has(key string) bool { _, ok := s[key]; return ok }

// Get returns the value of key ("" when absent).
func (s Set) Get(key string) string { return s[key] }

// String prints "k=v,k2=v2" with keys sorted.
func (s Set) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(s[k])
	}
	return b.String()
}

// AsSelector is the selector matching exactly these labels.
func (s Set) AsSelector() Selector { return SelectorFromSet(s) }
