package main

import (
	"net/http"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

// followLogs answers `kubectl logs -f`: the log so far as pods/log answers
// it (tail and since applied), then, polling the engine on the wall clock,
// each new line until the container stops, the pod goes or the client
// hangs up. Called with the engine locked; it unlocks.
func (e *engine) followLogs(w http.ResponseWriter, r *http.Request, ar *apiserver.Request, h *apiserver.Handler, all apiserver.LogOptions) {
	sw := &statusWriter{ResponseWriter: apiWriter{w}, status: http.StatusOK}
	h.Serve(sw, ar)
	pod, err := client.Get[*api.Pod](e.cluster.Client("kube-apiserver"), all.Namespace, all.Pod)
	if sw.status != http.StatusOK || err != nil {
		e.mu.Unlock()
		return
	}
	if all.Container == "" && len(pod.Spec.Containers) > 0 {
		all.Container = pod.Spec.Containers[0].Name
	}
	seen := len(e.logLines(all))
	containerID := ""
	if st := pod.ContainerStatusFor(all.Container); st != nil {
		containerID = st.ContainerID
	}
	e.mu.Unlock()
	flusher, _ := w.(http.Flusher)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
		e.mu.Lock()
		lines := e.logLines(all)
		cur, err := client.Get[*api.Pod](e.cluster.Client("kube-apiserver"), all.Namespace, all.Pod)
		e.mu.Unlock()
		if len(lines) > seen {
			if _, err := w.Write([]byte(strings.Join(lines[seen:], ""))); err != nil {
				return
			}
			seen = len(lines)
		}
		if err != nil || cur.UID != pod.UID || !cur.SameContainerLive(all.Container, containerID) {
			return
		}
	}
}

func (e *engine) logLines(o apiserver.LogOptions) []string {
	text, err := e.cluster.PodLogs(o)
	if err != nil || text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// statusWriter notes the status a handler answered with.
type statusWriter struct {
	apiserver.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
