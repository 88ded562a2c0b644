package intstr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ValueOrDefault returns v, or def when v is nil.
func ValueOrDefault(v *IntOrString, def IntOrString) *IntOrString {
	if v == nil {
		return &def
	}
	return v
}

// GetScaledValueFromIntOrPercent resolves an int, or a percentage such as
// "25%" of total rounded up or down; a string without "%" is an error.
// Deployments' maxSurge/maxUnavailable and PDBs resolve their values here.
func GetScaledValueFromIntOrPercent(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	value, isPercent, err := intOrPercent(v, true)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: %v", err)
	}
	return scale(value, isPercent, total, roundUp), nil
}

// GetValueFromIntOrPercent is the older, lenient form: every string is a
// percentage, with each "%" removed before reading the number.
func GetValueFromIntOrPercent(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	value, isPercent, err := intOrPercent(v, false)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: %v", err)
	}
	return scale(value, isPercent, total, roundUp), nil
}

// scale applies a percentage to total with upstream's float rounding.
func scale(value int, isPercent bool, total int, roundUp bool) int {
	if !isPercent {
		return value
	}
	f := float64(value) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(f))
	}
	return int(math.Floor(f))
}

// intOrPercent reads v; strict demands a trailing "%" on strings.
func intOrPercent(v *IntOrString, strict bool) (int, bool, error) {
	switch v.Type {
	case Int:
		return v.IntValue(), false, nil
	case String:
		var s string
		if strict {
			var ok bool
			if s, ok = strings.CutSuffix(v.StrVal, "%"); !ok {
				return 0, false, errors.New("invalid type: string is not a percentage")
			}
		} else {
			s = strings.ReplaceAll(v.StrVal, "%", "")
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false, fmt.Errorf("invalid value %q: %v", v.StrVal, err)
		}
		return n, true, nil
	}
	return 0, false, errors.New("invalid type: neither int nor percentage")
}
