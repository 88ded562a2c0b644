package protobuf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpstreamFixtures checks ToJSON against the round-trip fixtures of
// k8s.io/api (testdata/HEAD/*.pb beside *.json, every field filled in).
// They are not copied here; point K8S_API_TESTDATA at such a directory.
func TestUpstreamFixtures(t *testing.T) {
	dir := os.Getenv("K8S_API_TESTDATA")
	if dir == "" {
		t.Skip("K8S_API_TESTDATA is not set")
	}
	pbs, err := filepath.Glob(filepath.Join(dir, "*.pb"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, pb := range pbs {
		want, err := os.ReadFile(strings.TrimSuffix(pb, ".pb") + ".json")
		if err != nil {
			continue
		}
		var tm struct{ APIVersion, Kind string }
		if json.Unmarshal(want, &tm) != nil || schema.kind(tm.APIVersion, tm.Kind) == nil {
			continue
		}
		body, err := os.ReadFile(pb)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(pb), func(t *testing.T) {
			got, err := ToJSON(body)
			if err != nil {
				t.Fatalf("ToJSON: %v", err)
			}
			compareJSON(t, got, want)
		})
		checked++
	}
	t.Logf("checked %d fixtures", checked)
}
