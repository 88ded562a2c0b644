// Package resource is Quantity: "100m", "2Gi", "512Mi", "1.5".
package resource

import "encoding/json"

// Quantity keeps the text a user wrote; parsing and canonical form live beside it.
type Quantity struct {
	s string
}

// MustParse returns the quantity for s, panicking on a malformed literal (for constants only).
func MustParse(s string) Quantity { return Quantity{s: s} }

// String is the quantity as kubectl prints it.
func (q Quantity) String() string { return q.s }

// IsZero reports an unset quantity.
func (q Quantity) IsZero() bool { return q.s == "" || q.s == "0" }

func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.String()) }

func (q *Quantity) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' {
		q.s = string(b)
		return nil
	}
	return json.Unmarshal(b, &q.s)
}
