package api

import "testing"

func TestNodeConditions(t *testing.T) {
	n := &Node{Status: NodeStatus{Conditions: []NodeCondition{
		{Type: NodeMemoryPressure, Status: ConditionFalse},
		{Type: NodeReady, Status: ConditionTrue},
	}}}
	if i, c := GetNodeCondition(&n.Status, NodeReady); i != 1 || c == nil || c.Status != ConditionTrue {
		t.Fatalf("GetNodeCondition = %d %+v", i, c)
	}
	if !IsNodeReady(n) {
		t.Error("node should be ready")
	}
	_, c := GetNodeCondition(&n.Status, NodeReady)
	c.Status = ConditionUnknown // the pointer aliases the slice element
	if IsNodeReady(n) {
		t.Error("Unknown is not ready")
	}
	if i, c := GetNodeCondition(&n.Status, NodeDiskPressure); i != -1 || c != nil {
		t.Errorf("missing condition: %d %+v", i, c)
	}
	if IsNodeReady(nil) || IsNodeReady(&Node{}) {
		t.Error("nil node or node without conditions is not ready")
	}
}
