package labels

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
)

// Operator is a requirement's operator.
type Operator string

// The operators of the -l syntax.
const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// Requirement is one condition: key, operator, values (sorted).
type Requirement struct {
	key      string
	operator Operator
	values   []string
}

// Key, Operator and Values expose a requirement's parts.
func (r Requirement) Key() string        { return r.key }
func (r Requirement) Operator() Operator { return r.operator }
func (r Requirement) Values() []string   { return r.values }

// Requirements is a list of requirements, all of which must hold.
type Requirements []Requirement

// Selector matches label sets.
type Selector interface {
	Matches(Labels) bool
	Empty() bool
	String() string
	Requirements() (Requirements, bool)
}

// NewRequirement checks and builds a requirement, with upstream's errors.
func NewRequirement(key string, op Operator, vals []string) (*Requirement, error) {
	if err := validateLabelKey(key); err != nil {
		return nil, err
	}
	switch op {
	case In, NotIn:
		if len(vals) == 0 {
			return nil, fmt.Errorf("values: Invalid value: %s: for 'in', 'notin' operators, values set can't be empty", goStrings(vals))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(vals) != 1 {
			return nil, fmt.Errorf("values: Invalid value: %s: exact-match compatibility requires one single value", goStrings(vals))
		}
	case Exists, DoesNotExist:
		if len(vals) != 0 {
			return nil, fmt.Errorf("values: Invalid value: %s: values set must be empty for exists and does not exist", goStrings(vals))
		}
	case GreaterThan, LessThan:
		if len(vals) != 1 {
			return nil, fmt.Errorf("values: Invalid value: %s: for 'Gt', 'Lt' operators, exactly one value is required", goStrings(vals))
		}
		if _, err := strconv.ParseInt(vals[0], 10, 64); err != nil {
			return nil, fmt.Errorf("values[0]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", vals[0])
		}
	default:
		return nil, fmt.Errorf("operator: Unsupported value: %q: supported values: \"in\", \"notin\", \"=\", \"==\", \"!=\", \"gt\", \"lt\", \"exists\", \"!\"", string(op))
	}
	for _, v := range vals {
		if err := validateLabelValue(key, v); err != nil {
			return nil, err
		}
	}
	sorted := append([]string(nil), vals...)
	sort.Strings(sorted)
	return &Requirement{key: key, operator: op, values: sorted}, nil
}

func goStrings(vals []string) string {
	if vals == nil {
		return "[]string(nil)"
	}
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func (r *Requirement) hasValue(v string) bool {
	for _, x := range r.values {
		if x == v {
			return true
		}
	}
	return false
}

// Matches reports whether ls satisfies the requirement.
func (r *Requirement) Matches(ls Labels) bool {
	v, has := lookup(ls, r.key)
	switch r.operator {
	case In, Equals, DoubleEquals:
		return has && r.hasValue(v)
	case NotIn, NotEquals:
		return !has || !r.hasValue(v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has {
			return false
		}
		have, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, _ := strconv.ParseInt(r.values[0], 10, 64)
		if r.operator == GreaterThan {
			return have > want
		}
		return have < want
	}
	return false
}

// lookup is ls's value of key and whether it has one: one map lookup for
// a Set, where Has and Get would be two. Controllers match every pod of a
// workload against its selector on each sync.
func lookup(ls Labels, key string) (string, bool) {
	if s, ok := ls.(Set); ok {
		v, has := s[key]
		return v, has
	}
	if !ls.Has(key) {
		return "", false
	}
	return ls.Get(key), true
}

// String prints the requirement in -l syntax.
func (r *Requirement) String() string {
	var b strings.Builder
	if r.operator == DoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.operator {
	case Equals:
		b.WriteByte('=')
	case DoubleEquals:
		b.WriteString("==")
	case NotEquals:
		b.WriteString("!=")
	case In:
		b.WriteString(" in ")
	case NotIn:
		b.WriteString(" notin ")
	case GreaterThan:
		b.WriteByte('>')
	case LessThan:
		b.WriteByte('<')
	case Exists, DoesNotExist:
		return b.String()
	}
	if r.operator == In || r.operator == NotIn {
		b.WriteByte('(')
		b.WriteString(strings.Join(r.values, ","))
		b.WriteByte(')')
	} else {
		b.WriteString(r.values[0])
	}
	return b.String()
}

// internalSelector is a sorted list of requirements.
type internalSelector []Requirement

func (s internalSelector) Matches(ls Labels) bool {
	for i := range s {
		if !s[i].Matches(ls) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i := range s {
		parts[i] = s[i].String()
	}
	return strings.Join(parts, ",")
}

func (s internalSelector) Requirements() (Requirements, bool) { return Requirements(s), true }

func (s internalSelector) add(r Requirement) internalSelector {
	out := append(append(internalSelector(nil), s...), r)
	sortRequirements(out)
	return out
}

func sortRequirements(s internalSelector) {
	sort.SliceStable(s, func(i, j int) bool { return s[i].key < s[j].key })
}

type nothingSelector struct{}

func (nothingSelector) Matches(Labels) bool                { return false }
func (nothingSelector) Empty() bool                        { return false }
func (nothingSelector) String() string                     { return "" }
func (nothingSelector) Requirements() (Requirements, bool) { return nil, false }

// Everything matches all label sets.
func Everything() Selector { return internalSelector{} }

// Nothing matches no label set.
func Nothing() Selector { return nothingSelector{} }

// SelectorFromSet matches exactly the given labels (key=value for each).
// Invalid keys or values make a selector that matches nothing.
func SelectorFromSet(ls Set) Selector {
	var s internalSelector
	for k, v := range ls {
		r, err := NewRequirement(k, Equals, []string{v})
		if err != nil {
			return Nothing()
		}
		s = append(s, *r)
	}
	sortRequirements(s)
	return s
}

// SelectorFromLabelSelector converts a LabelSelector object: nil selects
// nothing, an empty one everything.
func SelectorFromLabelSelector(ps *api.LabelSelector) (Selector, error) {
	if ps == nil {
		return Nothing(), nil
	}
	if len(ps.MatchLabels)+len(ps.MatchExpressions) == 0 {
		return Everything(), nil
	}
	var s internalSelector
	for k, v := range ps.MatchLabels {
		r, err := NewRequirement(k, Equals, []string{v})
		if err != nil {
			return nil, err
		}
		s = append(s, *r)
	}
	for _, e := range ps.MatchExpressions {
		var op Operator
		switch e.Operator {
		case api.LabelSelectorOpIn:
			op = In
		case api.LabelSelectorOpNotIn:
			op = NotIn
		case api.LabelSelectorOpExists:
			op = Exists
		case api.LabelSelectorOpDoesNotExist:
			op = DoesNotExist
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return nil, err
		}
		s = append(s, *r)
	}
	sortRequirements(s)
	return s, nil
}

// FormatLabelSelector prints a LabelSelector as kubectl's SELECTOR column does.
func FormatLabelSelector(ps *api.LabelSelector) string {
	s, err := SelectorFromLabelSelector(ps)
	if err != nil {
		return "<error>"
	}
	if out := s.String(); out != "" {
		return out
	}
	return "<none>"
}
