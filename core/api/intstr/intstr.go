// Package intstr is IntOrString: a field that holds 3 or "25%".
package intstr

import (
	"encoding/json"
	"strconv"
)

// Type says which half of an IntOrString is set.
type Type int

const (
	Int Type = iota
	String
)

// IntOrString is upstream's intstr.IntOrString.
type IntOrString struct {
	Type   Type
	IntVal int32
	StrVal string
}

// FromInt returns an int value.
func FromInt(v int) IntOrString { return IntOrString{Type: Int, IntVal: int32(v)} }

// FromInt32 returns an int value.
func FromInt32(v int32) IntOrString { return IntOrString{Type: Int, IntVal: v} }

// Parse reads an int32 when s is one, else keeps s as a string.
func Parse(s string) IntOrString {
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return FromInt32(int32(i))
	}
	return FromString(s)
}

// FromString returns a string value such as "25%".
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// String prints the value as a user wrote it.
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// IntValue is the int, or the string read as an int (0 when it is not one).
func (v IntOrString) IntValue() int {
	if v.Type == String {
		i, _ := strconv.Atoi(v.StrVal)
		return i
	}
	return int(v.IntVal)
}

func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return json.Marshal(v.StrVal)
	}
	return []byte(strconv.Itoa(int(v.IntVal))), nil
}

func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type = String
		v.IntVal = 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type = Int
	v.StrVal = ""
	return json.Unmarshal(b, &v.IntVal)
}
