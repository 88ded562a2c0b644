package api

import "time"

// RFC3339Micro is MicroTime's wire layout.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MicroTime is metav1.MicroTime: like Time but with microseconds on the wire
// (events' eventTime, leases' acquireTime and renewTime).
type MicroTime struct {
	time.Time
}

// NewMicroTime wraps t, keeping microseconds.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.UTC().Truncate(time.Microsecond)} }

// NewMicroTimePtr is NewMicroTime for optional fields.
func NewMicroTimePtr(t time.Time) *MicroTime { v := NewMicroTime(t); return &v }

func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(RFC3339Micro) + `"`), nil
}

func (t *MicroTime) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" || s == `""` {
		t.Time = time.Time{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return &time.ParseError{Layout: RFC3339Micro, Value: s, Message: ": expected a quoted RFC 3339 time"}
	}
	// RFC 3339 parsing accepts any number of fractional digits, so both
	// "…05Z" and "…05.123456Z" decode.
	pt, err := time.Parse(time.RFC3339Nano, s[1:len(s)-1])
	if err != nil {
		return err
	}
	t.Time = pt.UTC().Truncate(time.Microsecond)
	return nil
}

// IsZeroTime lets omitempty-aware encoders drop an unset time.
func (t *MicroTime) IsZeroTime() bool { return t == nil || t.Time.IsZero() }
