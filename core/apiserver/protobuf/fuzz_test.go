package protobuf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzToJSON: no input may panic, and whatever converts must be JSON.
func FuzzToJSON(f *testing.F) {
	pbs, _ := filepath.Glob("testdata/kubectl/*.pb")
	for _, pb := range pbs {
		if b, err := os.ReadFile(pb); err == nil {
			f.Add(b)
		}
	}
	f.Add(pbEnvelope("apps/v1", "ControllerRevision", pbBytes(nil, 2, pbBytes(nil, 1, pbEnvelope("v1", "Namespace", nil)))))
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := ToJSON(body)
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid JSON %q from %x", out, body)
		}
	})
}
