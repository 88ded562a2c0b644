package apiserver

import (
	"encoding/json"
	"testing"
)

// An HPA written through autoscaling/v1 (as kubectl autoscale writes it) is
// stored once and read in whichever version the request names.
func TestHPAWrittenAsV1ReadsInEitherVersion(t *testing.T) {
	s := newTestServer(t)
	h := &Handler{Server: s}
	do := func(method, path, body string) map[string]any {
		t.Helper()
		req, err := NewRequest(method, path, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		w := NewRecorder()
		h.Serve(w, req)
		if w.Code >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body.String())
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	created := do("POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
		`{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},
		  "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":5,"targetCPUUtilizationPercentage":60}}`)
	if created["apiVersion"] != "autoscaling/v1" || created["metadata"].(map[string]any)["name"] != "web" {
		t.Fatalf("create answered %v", created)
	}
	if got := created["spec"].(map[string]any)["targetCPUUtilizationPercentage"]; got != float64(60) {
		t.Errorf("v1 answer targetCPUUtilizationPercentage = %v", got)
	}
	v2 := do("GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web", "")
	if v2["apiVersion"] != "autoscaling/v2" {
		t.Fatalf("v2 read %v", v2)
	}
	spec := v2["spec"].(map[string]any)
	metric := spec["metrics"].([]any)[0].(map[string]any)["resource"].(map[string]any)
	if metric["name"] != "cpu" || metric["target"].(map[string]any)["averageUtilization"] != float64(60) {
		t.Errorf("v2 metrics = %v", spec["metrics"])
	}
	list := do("GET", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers", "")
	item := list["items"].([]any)[0].(map[string]any)
	if list["apiVersion"] != "autoscaling/v1" || item["spec"].(map[string]any)["targetCPUUtilizationPercentage"] != float64(60) {
		t.Errorf("v1 list = %v", list)
	}
}
