package playground

import (
	"io"
	"strings"
	"testing"
	"time"

	"kubeplay/core/sim"
)

// BenchmarkGetPodsWide is the browser suite's typed command without the
// page: `kubectl get pods -o wide` on 100 Running pods, through the Host
// as the terminal runs it (shell, kubectl, the table, the output buffer).
func BenchmarkGetPodsWide(b *testing.B) {
	h := NewHost(sim.NewDefault(sim.Options{Seed: 1, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}))
	h.C.AddDefaultNode()
	var setup strings.Builder
	h.Run("kubectl create deployment many --image=nginx --replicas=100", &setup, false)
	h.Run("kubectl rollout status deployment/many --timeout=10m", &setup, false)
	var out strings.Builder
	h.Run("kubectl get pods -o wide", &out, false)
	if n := strings.Count(out.String(), " Running "); n != 100 {
		b.Fatalf("%d Running pods, want 100:\n%s%s", n, setup.String(), out.String())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.Run("kubectl get pods -o wide", io.Discard, false)
	}
}
