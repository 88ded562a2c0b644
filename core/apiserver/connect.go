package apiserver

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
)

// Subresources that reach a node: pods/log (and later exec and attach).
// The API server holds no containers; the simulation plugs its kubelets in.

// LogOptions are pods/log's query parameters.
type LogOptions struct {
	Namespace, Pod, Container string
	Previous, Timestamps      bool
	TailLines                 int64 // -1: all
	SinceSeconds              int64
	LimitBytes                int64
}

// PodConnector reaches a pod's containers through its node.
type PodConnector interface {
	PodLogs(LogOptions) (string, error)
}

// ExecOptions are pods/exec's query parameters.
type ExecOptions struct {
	Namespace, Pod, Container  string
	Command                    []string
	Stdin, Stdout, Stderr, TTY bool
}

// PodExecer runs a command in a container (pods/exec); the simulation's
// PodConnector implements it.
type PodExecer interface {
	PodExec(opts ExecOptions, stdin io.Reader, stdout, stderr io.Writer) (exitCode int, err error)
}

// ParseExec reports whether r is a pods/exec request and reads its query.
// The host answers it: the command runs through Exec, and its output goes
// back over the stream protocol the client asked for.
func (h *Handler) ParseExec(r *Request) (*ExecOptions, bool) {
	parts := strings.Split(strings.Trim(r.Path, "/"), "/")
	// api/v1/namespaces/NS/pods/NAME/exec
	if len(parts) != 7 || parts[0] != "api" || parts[1] != "v1" || parts[2] != "namespaces" || parts[4] != "pods" || parts[6] != "exec" {
		return nil, false
	}
	q := r.Query()
	yes := func(k string) bool { v := q.Get(k); return v == "true" || v == "1" }
	return &ExecOptions{Namespace: parts[3], Pod: parts[5], Container: q.Get("container"), Command: q["command"],
		Stdin: yes("stdin"), Stdout: yes("stdout"), Stderr: yes("stderr"), TTY: yes("tty")}, true
}

// Exec runs an exec request's command, as the API server's pods/exec
// connects to the pod's kubelet: the checks the API server makes first,
// then the command, whose streams go to stdout and stderr.
func (h *Handler) Exec(o *ExecOptions, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if len(o.Command) == 0 {
		return 0, apierrors.NewBadRequest("you must specify at least 1 command")
	}
	res, _ := h.Server.Registry.Get("", "pods")
	obj, err := h.Server.Get(res, o.Namespace, o.Pod)
	if err != nil {
		return 0, err
	}
	pod := obj.(*api.Pod)
	if o.Container == "" {
		if len(pod.Spec.Containers) != 1 {
			names := make([]string, 0, len(pod.Spec.Containers))
			for _, c := range pod.Spec.Containers {
				names = append(names, c.Name)
			}
			return 0, apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", pod.Name, strings.Join(names, " ")))
		}
		o.Container = pod.Spec.Containers[0].Name
	}
	found := false
	for _, c := range pod.Spec.InitContainers {
		found = found || c.Name == o.Container
	}
	for _, c := range pod.Spec.Containers {
		found = found || c.Name == o.Container
	}
	if !found {
		return 0, apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", o.Container, pod.Name))
	}
	if pod.Spec.NodeName == "" {
		return 0, apierrors.NewBadRequest(fmt.Sprintf("pod %s does not have a host assigned", pod.Name))
	}
	pe, ok := h.Server.Pods.(PodExecer)
	if !ok {
		return 0, apierrors.NewServiceUnavailable("exec is not available")
	}
	if !o.Stdin {
		stdin = nil
	}
	if !o.Stdout {
		stdout = io.Discard
	}
	if !o.Stderr {
		stderr = io.Discard
	}
	if o.TTY {
		stderr = stdout // a terminal merges the streams
	}
	return pe.PodExec(*o, stdin, stdout, stderr)
}

// WriteError answers a request with err as a Status, as every verb does.
func WriteError(w ResponseWriter, err error) { writeStatus(w, err) }

// ExecStatus is the Status an exec stream's error channel carries when the
// command has ended: Success, or a NonZeroExitCode failure whose cause is
// the exit code, which kubectl turns into its own exit code.
func ExecStatus(o *ExecOptions, code int) []byte {
	s := map[string]any{"metadata": map[string]any{}, "status": "Success"}
	if code != 0 {
		s = map[string]any{"metadata": map[string]any{}, "status": "Failure",
			"message": fmt.Sprintf("command terminated with non-zero exit code: error executing command %v, exit code %d", o.Command, code),
			"reason":  "NonZeroExitCode",
			"details": map[string]any{"causes": []any{map[string]any{"reason": "ExitCode", "message": fmt.Sprint(code)}}}}
	}
	b, _ := json.Marshal(s)
	return b
}

// ParseLogFollow reports whether r is a pods/log request with follow=true,
// which the host streams: the container's log so far as any pods/log
// request answers it, then each line as the container writes it.
func (h *Handler) ParseLogFollow(r *Request) (LogOptions, bool) {
	parts := strings.Split(strings.Trim(r.Path, "/"), "/")
	// api/v1/namespaces/NS/pods/NAME/log
	q := r.Query()
	if r.Method != "GET" || len(parts) != 7 || parts[0] != "api" || parts[1] != "v1" || parts[2] != "namespaces" ||
		parts[4] != "pods" || parts[6] != "log" || q.Get("follow") != "true" || q.Get("previous") == "true" {
		return LogOptions{}, false
	}
	return LogOptions{Namespace: parts[3], Pod: parts[5], Container: q.Get("container"),
		Timestamps: q.Get("timestamps") == "true", TailLines: -1}, true
}
