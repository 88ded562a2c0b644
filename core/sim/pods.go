package sim

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/kubectl"
	"kubeplay/core/kubelet"
	"kubeplay/core/kubelet/runtime"
)

// The terminal's reach into containers: kubectl logs and exec go to the
// kubelet of the pod's node, as the API server's pods/log and pods/exec do.

func (t *Terminal) kubeletOf(namespace, pod string) (*kubelet.Kubelet, *api.Pod, error) {
	p, err := client.Get[*api.Pod](t.Cluster.Client("kubectl"), namespace, pod)
	if err != nil {
		return nil, nil, err
	}
	if p.Spec.NodeName == "" {
		return nil, p, nil
	}
	k, ok := t.Cluster.Kubelet(p.Spec.NodeName)
	if !ok || !k.Running() {
		return nil, p, apierrors.NewInternalError(fmt.Errorf("Get \"https://%s:10250/containerLogs/%s/%s\": dial tcp: connect: no route to host", p.Spec.NodeName, namespace, pod))
	}
	return k, p, nil
}

func (t *Terminal) logs(req kubectl.LogsRequest) (string, error) {
	return t.Cluster.PodLogs(apiserver.LogOptions{Namespace: req.Namespace, Pod: req.Pod, Container: req.Container,
		Previous: req.Previous, Timestamps: req.Timestamps, TailLines: req.TailLines, SinceSeconds: req.SinceSeconds, LimitBytes: req.LimitBytes})
}

// PodLogs is pods/log: a container's output from its node's kubelet.
func (c *Cluster) PodLogs(req apiserver.LogOptions) (string, error) {
	p, err := client.Get[*api.Pod](c.Client("kube-apiserver"), req.Namespace, req.Pod)
	if err != nil {
		return "", err
	}
	if req.Container == "" {
		if len(p.Spec.Containers) != 1 {
			names := make([]string, 0, len(p.Spec.Containers))
			for _, ct := range p.Spec.Containers {
				names = append(names, ct.Name)
			}
			return "", apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", p.Name, strings.Join(names, " ")))
		}
		req.Container = p.Spec.Containers[0].Name
	}
	if p.Spec.NodeName == "" {
		return "", nil // an unscheduled pod has no logs yet
	}
	k, ok := c.Kubelet(p.Spec.NodeName)
	if !ok || !k.Running() {
		return "", apierrors.NewInternalError(fmt.Errorf("Get \"https://%s:10250/containerLogs/%s/%s/%s\": dial tcp: connect: no route to host", p.Spec.NodeName, req.Namespace, req.Pod, req.Container))
	}
	lines, err := k.Logs(req.Namespace, req.Pod, req.Container, req.Previous)
	if err != nil {
		return "", apierrors.NewBadRequest(err.Error())
	}
	now := c.Now()
	if req.SinceSeconds > 0 {
		var kept []runtime.LogLine
		for _, l := range lines {
			if now.Sub(l.Time) <= time.Duration(req.SinceSeconds)*time.Second {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if req.TailLines >= 0 && int64(len(lines)) > req.TailLines {
		lines = lines[int64(len(lines))-req.TailLines:]
	}
	var b strings.Builder
	for _, l := range lines {
		if req.Timestamps {
			b.WriteString(l.Time.UTC().Format("2006-01-02T15:04:05.000000000Z07:00") + " ")
		}
		b.WriteString(l.Text + "\n")
	}
	out := b.String()
	if req.LimitBytes > 0 && int64(len(out)) > req.LimitBytes {
		out = out[:req.LimitBytes]
	}
	return out, nil
}

func (t *Terminal) exec(req kubectl.ExecRequest) int {
	k, p, err := t.kubeletOf(req.Namespace, req.Pod)
	if err == nil && k == nil {
		err = fmt.Errorf("unable to upgrade connection: container not found (%q)", req.Container)
		_ = p
	}
	if err != nil {
		fmt.Fprintf(req.Stderr, "error: %s\n", strings.TrimPrefix(err.Error(), "Internal error occurred: "))
		return -1
	}
	stderr := req.Stderr
	if req.TTY {
		stderr = req.Stdout // a terminal merges the streams
	}
	code, err := t.Cluster.execIn(k, req.Namespace, req.Pod, req.Container, req.Command, req.Stdin, req.Stdout, stderr)
	if err != nil {
		fmt.Fprintf(req.Stderr, "error: %s\n", err)
		return -1
	}
	return code
}

// execIn runs a command in a container through its node's kubelet; a
// sleep in it lets virtual time pass.
func (c *Cluster) execIn(k *kubelet.Kubelet, namespace, pod, container string, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	return k.Exec(namespace, pod, container, argv, kubelet.ExecOptions{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Sleep: func(d time.Duration) {
			if d < 0 || d > time.Hour {
				d = time.Hour
			}
			c.Advance(d)
		},
	})
}

// PodExec is pods/exec for the API server: the command runs in the
// container through its node's kubelet, as kubectl exec does here.
func (c *Cluster) PodExec(o apiserver.ExecOptions, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	p, err := client.Get[*api.Pod](c.Client("kube-apiserver"), o.Namespace, o.Pod)
	if err != nil {
		return 0, err
	}
	k, ok := c.Kubelet(p.Spec.NodeName)
	if !ok || !k.Running() {
		return 0, apierrors.NewInternalError(fmt.Errorf("error dialing backend: dial tcp %s:10250: connect: no route to host", p.Spec.NodeName))
	}
	code, err := c.execIn(k, o.Namespace, o.Pod, o.Container, o.Command, stdin, stdout, stderr)
	if err != nil {
		return 0, apierrors.NewBadRequest(err.Error())
	}
	return code, nil
}
