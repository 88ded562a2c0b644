package resource

import (
	"bytes"
	"strconv"
	"strings"
)

// MarshalJSON writes the canonical string.
func (q Quantity) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, q.String()), nil
}

// UnmarshalJSON accepts a JSON string or number ("1.5Gi", 2, 0.5); null
// leaves a zero quantity. Anything else fails with ParseQuantity's error.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*q = Quantity{}
		return nil
	}
	if l := len(b); l >= 2 && b[0] == '"' && b[l-1] == '"' {
		b = b[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(b)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}
