package kubelet

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kubeplay/core/kubelet/runtime"
)

// What the kubelet serves besides running pods: container logs and exec,
// as its HTTP server does for the API server's pods/log and pods/exec.

// containerFor finds a container of a pod the kubelet runs.
func (k *Kubelet) containerFor(namespace, pod, container string) (*podState, *containerState, error) {
	uid, ok := k.byKey[namespace+"/"+pod]
	if !ok {
		return nil, nil, fmt.Errorf("pod %q not found on node %q", pod, k.nodeName)
	}
	ps := k.pods[uid]
	for _, c := range ps.all() {
		if c.name == container {
			return ps, c, nil
		}
	}
	return nil, nil, fmt.Errorf("container %q not found in pod %q", container, pod)
}

// Logs returns a container's log lines: the current (or last) instance's,
// or with previous the one before it. Errors are worded as the kubelet's.
func (k *Kubelet) Logs(namespace, pod, container string, previous bool) ([]runtime.LogLine, error) {
	ps, c, err := k.containerFor(namespace, pod, container)
	if err != nil {
		return nil, err
	}
	podName := ps.pod.Name
	switch {
	case previous:
		prev := c.prev
		if c.phase == phaseWaiting && c.terminated != nil {
			prev = c.current // waiting to restart: the ended instance is "previous"
		}
		if prev == nil || !prev.Exited {
			return nil, fmt.Errorf("previous terminated container %q in pod %q not found", container, podName)
		}
		return prev.Logs(), nil
	case c.current != nil:
		return c.current.Logs(), nil
	case c.phase == phaseWaiting:
		switch c.waitingReason {
		case "ErrImagePull":
			return nil, fmt.Errorf("container %q in pod %q is waiting to start: image can't be pulled", container, podName)
		case "ImagePullBackOff":
			return nil, fmt.Errorf("container %q in pod %q is waiting to start: trying and failing to pull image", container, podName)
		case "":
			return nil, fmt.Errorf("container %q in pod %q is waiting to start - no logs yet", container, podName)
		}
		return nil, fmt.Errorf("container %q in pod %q is waiting to start: %s", container, podName, c.waitingReason)
	}
	return nil, fmt.Errorf("container %q in pod %q is waiting to start - no logs yet", container, podName)
}

// ExecOptions tune Exec.
type ExecOptions struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Sleep lets virtual time pass while the command sleeps.
	Sleep func(time.Duration)
}

// Exec runs a command in a running container and returns its exit code.
func (k *Kubelet) Exec(namespace, pod, container string, argv []string, opts ExecOptions) (int, error) {
	_, c, err := k.containerFor(namespace, pod, container)
	if err != nil {
		return 0, err
	}
	if c.current == nil || c.current.Exited || c.phase != phaseRunning {
		return 0, fmt.Errorf("unable to upgrade connection: container not found (%q)", container)
	}
	var stdin string
	if opts.Stdin != nil {
		b, _ := io.ReadAll(io.LimitReader(opts.Stdin, 1<<20))
		stdin = string(b)
	}
	res := c.current.Exec(argv, runtime.ExecOptions{Stdin: stdin, Sleep: opts.Sleep})
	if res.NotFound {
		return 0, fmt.Errorf("%s", strings.TrimSuffix(res.Stderr, "\n"))
	}
	if opts.Stdout != nil {
		io.WriteString(opts.Stdout, res.Stdout)
	}
	if opts.Stderr != nil {
		io.WriteString(opts.Stderr, res.Stderr)
	}
	return res.Code, nil
}

// HTTP sends a request to a pod's port, for the cluster network.
func (k *Kubelet) HTTP(namespace, pod string, port int, req *runtime.Request) (*runtime.Response, bool) {
	uid, ok := k.byKey[namespace+"/"+pod]
	if !ok {
		return nil, false
	}
	return k.podHTTP(k.pods[uid], port, req)
}

// PodIP is the IP the kubelet gave a pod, "" before its sandbox is up.
func (k *Kubelet) PodIP(namespace, pod string) string {
	if uid, ok := k.byKey[namespace+"/"+pod]; ok {
		return k.pods[uid].ip
	}
	return ""
}

// PodUsage is what each running container of a pod uses now.
func (k *Kubelet) PodUsage(namespace, pod string) (map[string]runtime.Usage, bool) {
	uid, ok := k.byKey[namespace+"/"+pod]
	if !ok {
		return nil, false
	}
	ps := k.pods[uid]
	out := map[string]runtime.Usage{}
	for _, c := range ps.cs {
		if c.current != nil && !c.current.Exited {
			out[c.name] = c.current.Usage()
		}
	}
	return out, len(out) > 0
}

// SetLoad puts CPU load (millicores) on a pod's running containers.
func (k *Kubelet) SetLoad(namespace, pod string, milliCPU int64) bool {
	uid, ok := k.byKey[namespace+"/"+pod]
	if !ok {
		return false
	}
	set := false
	for _, c := range k.pods[uid].cs {
		if c.current != nil && !c.current.Exited {
			c.current.Load = milliCPU
			set = true
		}
	}
	return set
}

// nodeOverhead is what the node's own daemons (kubelet, containerd) use.
var nodeOverhead = runtime.Usage{MilliCPU: 48, Memory: 420 << 20}

// NodeUsage is the node's whole use: its pods and its own daemons.
func (k *Kubelet) NodeUsage() runtime.Usage {
	u := nodeOverhead
	for _, ps := range k.pods {
		for _, c := range ps.all() {
			if c.current != nil && !c.current.Exited {
				cu := c.current.Usage()
				u.MilliCPU += cu.MilliCPU
				u.Memory += cu.Memory
			}
		}
	}
	return u
}

// NodeIP is the node's InternalIP.
func (k *Kubelet) NodeIP() string { return k.opts.NodeIP }
