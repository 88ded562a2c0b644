package api

import (
	"encoding/json"
	"testing"
	"time"
)

func TestMicroTimeJSON(t *testing.T) {
	tm := NewMicroTime(time.Date(2026, 11, 22, 12, 10, 3, 402118999, time.FixedZone("X", 3600)))
	b, err := json.Marshal(tm)
	if err != nil || string(b) != `"2026-11-22T11:10:03.402118Z"` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back MicroTime
	if err := json.Unmarshal(b, &back); err != nil || !back.Equal(tm.Time) {
		t.Fatalf("Unmarshal = %v, %v", back, err)
	}
	if b, _ := json.Marshal(MicroTime{}); string(b) != "null" {
		t.Errorf("zero MicroTime = %s, want null", b)
	}
	for _, in := range []string{`null`, `""`} {
		v := tm
		if err := json.Unmarshal([]byte(in), &v); err != nil || !v.IsZero() {
			t.Errorf("Unmarshal(%s) = %v, %v", in, v, err)
		}
	}
	var whole MicroTime
	if err := json.Unmarshal([]byte(`"2026-11-22T11:10:03Z"`), &whole); err != nil || whole.Nanosecond() != 0 {
		t.Errorf("whole seconds: %v %v", whole, err)
	}
	for _, bad := range []string{`12`, `"yesterday"`, `"2026-11-22"`} {
		var v MicroTime
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		}
	}
	var nilp *MicroTime
	if !nilp.IsZeroTime() || !(&MicroTime{}).IsZeroTime() || tm.IsZeroTime() {
		t.Error("IsZeroTime wrong")
	}
}

func FuzzMicroTimeUnmarshal(f *testing.F) {
	for _, s := range []string{`"2026-11-22T11:10:03.402118Z"`, `null`, `""`, `"x"`, `"`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v MicroTime
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return
		}
		// Whatever decodes re-encodes and decodes to the same instant.
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back MicroTime
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(v.Time) {
			t.Fatalf("%s → %s → %v (%v)", s, b, back, err)
		}
	})
}

func TestRawExtensionJSON(t *testing.T) {
	cr := ControllerRevision{Revision: 2}
	if b, _ := json.Marshal(cr); string(b) != `{"metadata":{"creationTimestamp":null},"data":null,"revision":2}` {
		t.Errorf("empty data: %s", b)
	}
	in := []byte(`{"revision":3,"data":{"spec":{"template":{"$patch":"replace"}}}}`)
	if err := json.Unmarshal(in, &cr); err != nil {
		t.Fatal(err)
	}
	if string(cr.Data.Raw) != `{"spec":{"template":{"$patch":"replace"}}}` {
		t.Errorf("Raw = %s", cr.Data.Raw)
	}
	b, _ := json.Marshal(cr.Data)
	if string(b) != string(cr.Data.Raw) {
		t.Errorf("Marshal = %s", b)
	}
	if err := json.Unmarshal([]byte(`{"data":null}`), &cr); err != nil || cr.Data.Raw != nil {
		t.Errorf("null data: %s %v", cr.Data.Raw, err)
	}
}
