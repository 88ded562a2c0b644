package protobuf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubectlBodies converts bodies that kubectl v1.32 sent as protobuf
// (testdata/kubectl/NAME.pb) and compares them with the JSON the same
// command prints with --dry-run=client -o json (NAME.json). token,
// drain-delete (kubectl drain deleting a pod), cani (kubectl auth can-i) and
// whoami (kubectl auth whoami) have no dry run: their JSON is written by
// hand from what kubectl puts in the Go object.
// creationTimestamp is dropped from both sides: kubectl 1.32 writes null
// where newer upstream types, which the tables follow, write nothing.
func TestKubectlBodies(t *testing.T) {
	pbs, err := filepath.Glob("testdata/kubectl/*.pb")
	if err != nil || len(pbs) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, pb := range pbs {
		name := strings.TrimSuffix(filepath.Base(pb), ".pb")
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(pb)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(pb, ".pb") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := ToJSON(body)
			if err != nil {
				t.Fatalf("ToJSON: %v", err)
			}
			compareJSON(t, dropNullCreationTimestamps(t, got), dropNullCreationTimestamps(t, want))
		})
	}
}
