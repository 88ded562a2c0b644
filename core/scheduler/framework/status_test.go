package framework

import (
	"errors"
	"testing"
)

// Plain Skips are one shared value; naming one, or giving it an error,
// changes a copy and leaves every other Skip as it was.
func TestSharedSkipIsNeverChanged(t *testing.T) {
	named := NewStatus(Skip).WithPlugin("NodePorts")
	failed := NewStatus(Skip).WithError(errors.New("boom"))
	plain := NewStatus(Skip)
	if named.Plugin() != "NodePorts" || !named.IsSkip() {
		t.Errorf("named skip: plugin %q, code %v", named.Plugin(), named.Code())
	}
	if failed.Message() != "boom" || failed.Err() == nil {
		t.Errorf("skip with an error: message %q, err %v", failed.Message(), failed.Err())
	}
	if plain.Plugin() != "" || plain.Message() != "" || plain.Err() != nil || !plain.IsSkip() {
		t.Errorf("a later Skip carries %q, %q, %v", plain.Plugin(), plain.Message(), plain.Err())
	}
	if withReason := NewStatus(Skip, "why"); withReason == plain || withReason.Message() != "why" {
		t.Errorf("a Skip with reasons is its own status: %q", withReason.Message())
	}
}
