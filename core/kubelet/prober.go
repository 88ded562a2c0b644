package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/clock"
	"kubeplay/core/kubelet/runtime"
)

// probeWorker runs one probe of one container instance on its period,
// counting consecutive results against the thresholds.
type probeWorker struct {
	kind     string // "Liveness", "Readiness", "Startup"
	probe    *api.Probe
	inst     *runtime.Container
	timer    *clock.Timer
	stopped  bool
	success  int
	failures int
	result   bool
	known    bool // a verdict has been reached
	// onResult is called when the verdict settles (threshold reached).
	onResult func(ok bool)
}

func defaulted(p *api.Probe) (period, timeout time.Duration, successT, failureT int) {
	period, timeout = 10*time.Second, time.Second
	successT, failureT = 1, 3
	if p.PeriodSeconds > 0 {
		period = time.Duration(p.PeriodSeconds) * time.Second
	}
	if p.TimeoutSeconds > 0 {
		timeout = time.Duration(p.TimeoutSeconds) * time.Second
	}
	if p.SuccessThreshold > 0 {
		successT = int(p.SuccessThreshold)
	}
	if p.FailureThreshold > 0 {
		failureT = int(p.FailureThreshold)
	}
	return
}

// startProbes begins a started container's probes: the startup probe
// first; liveness and readiness once it has succeeded.
func (k *Kubelet) startProbes(ps *podState, c *containerState) {
	inst := c.current
	if p := c.spec.StartupProbe; p != nil {
		k.addProbe(ps, c, "Startup", p, inst, func(ok bool) {
			if ok {
				c.started = true
				k.startRuntimeProbes(ps, c, inst)
				k.queue.Add(ps.key)
				return
			}
			k.eventf(ps.pod, "Normal", "Killing", "Container %s failed startup probe, will be restarted", c.name)
			k.killContainer(ps, c, "StartupProbe", p.TerminationGracePeriodSeconds)
		})
		return
	}
	k.startRuntimeProbes(ps, c, inst)
}

func (k *Kubelet) startRuntimeProbes(ps *podState, c *containerState, inst *runtime.Container) {
	if p := c.spec.LivenessProbe; p != nil {
		k.addProbe(ps, c, "Liveness", p, inst, func(ok bool) {
			if ok {
				return
			}
			k.eventf(ps.pod, "Normal", "Killing", "Container %s failed liveness probe, will be restarted", c.name)
			k.killContainer(ps, c, "LivenessProbe", p.TerminationGracePeriodSeconds)
		})
	}
	if p := c.spec.ReadinessProbe; p != nil {
		k.addProbe(ps, c, "Readiness", p, inst, func(ok bool) {
			if c.ready != ok {
				c.ready = ok
				k.queue.Add(ps.key)
			}
		})
	}
}

func (k *Kubelet) addProbe(ps *podState, c *containerState, kind string, p *api.Probe, inst *runtime.Container, onResult func(bool)) {
	w := &probeWorker{kind: kind, probe: p, inst: inst, onResult: onResult}
	c.probes = append(c.probes, w)
	delay := time.Duration(p.InitialDelaySeconds) * time.Second
	w.timer = k.clock.AfterFunc(delay, func() { k.runProbe(ps, c, w) })
}

func (c *containerState) stopProbes(k *Kubelet) {
	for _, w := range c.probes {
		w.stopped = true
		if w.timer != nil {
			k.clock.Stop(w.timer)
			w.timer = nil
		}
	}
	c.probes = nil
}

// runProbe runs one probe attempt and schedules the next. Probes run on
// the node, not through the API: only their verdicts reach the pod.
func (k *Kubelet) runProbe(ps *podState, c *containerState, w *probeWorker) {
	w.timer = nil
	if w.stopped || w.inst.Exited || !k.running {
		if !w.stopped && !w.inst.Exited {
			// a stopped kubelet probes nothing; try again later
			period, _, _, _ := defaulted(w.probe)
			w.timer = k.clock.AfterFunc(period, func() { k.runProbe(ps, c, w) })
		}
		return
	}
	period, timeout, successT, failureT := defaulted(w.probe)
	ok, output := k.probeOnce(ps, c, &w.probe.ProbeHandler, timeout)
	if ok {
		w.failures = 0
		w.success++
		if w.success >= successT && (!w.known || !w.result) {
			w.known, w.result = true, true
			w.onResult(true)
		}
		if w.kind == "Startup" && w.result {
			return // a startup probe is done once it has succeeded
		}
	} else {
		w.success = 0
		w.failures++
		k.eventf(ps.pod, "Warning", "Unhealthy", "%s probe failed: %s", w.kind, output)
		if w.failures >= failureT && (!w.known || w.result) {
			w.known, w.result = true, false
			w.onResult(false)
			if w.kind != "Readiness" {
				return // the container is being restarted: this worker is done
			}
		}
	}
	if !w.stopped && !w.inst.Exited {
		w.timer = k.clock.AfterFunc(period, func() { k.runProbe(ps, c, w) })
	}
}

// probeOnce runs a probe handler against the container.
func (k *Kubelet) probeOnce(ps *podState, c *containerState, h *api.ProbeHandler, timeout time.Duration) (bool, string) {
	inst := c.current
	switch {
	case h.Exec != nil:
		res := inst.Exec(h.Exec.Command, runtime.ExecOptions{})
		if res.Elapsed > timeout {
			return false, fmt.Sprintf("command %s timed out", strconv.Quote(strings.Join(h.Exec.Command, " ")))
		}
		if res.NotFound {
			return false, res.Stderr
		}
		return res.Code == 0, res.Stdout + res.Stderr
	case h.HTTPGet != nil:
		g := h.HTTPGet
		port, err := resolvePort(g.Port, *c.spec)
		if err != nil {
			return false, err.Error()
		}
		host := g.Host
		if host == "" {
			host = ps.ip
		}
		p := g.Path
		if p == "" {
			p = "/"
		}
		scheme := strings.ToLower(string(g.Scheme))
		if scheme == "" {
			scheme = "http"
		}
		url := fmt.Sprintf("%s://%s", scheme, joinHostPort(host, port)) + p
		hdr := map[string]string{"User-Agent": "kube-probe/1.32"}
		for _, hh := range g.HTTPHeaders {
			hdr[hh.Name] = hh.Value
		}
		resp, ok := k.podHTTP(ps, port, &runtime.Request{Method: "GET", Path: p, Header: hdr, RemoteIP: k.opts.NodeIP})
		if !ok {
			return false, fmt.Sprintf("Get %q: dial tcp %s: connect: connection refused", url, joinHostPort(host, port))
		}
		if resp.Status >= 200 && resp.Status < 400 {
			return true, ""
		}
		return false, fmt.Sprintf("HTTP probe failed with statuscode: %d", resp.Status)
	case h.TCPSocket != nil:
		port, err := resolvePort(h.TCPSocket.Port, *c.spec)
		if err != nil {
			return false, err.Error()
		}
		if _, ok := k.podListener(ps, port); ok {
			return true, ""
		}
		host := h.TCPSocket.Host
		if host == "" {
			host = ps.ip
		}
		return false, fmt.Sprintf("dial tcp %s: connect: connection refused", joinHostPort(host, port))
	case h.GRPC != nil:
		if _, ok := k.podListener(ps, int(h.GRPC.Port)); ok {
			return true, ""
		}
		return false, fmt.Sprintf("timeout: failed to connect service %q within %s: context deadline exceeded", joinHostPort(ps.ip, int(h.GRPC.Port)), timeout)
	}
	return true, ""
}

func joinHostPort(host string, port int) string { return host + ":" + strconv.Itoa(port) }

// resolvePort turns a probe's port (number or container port name) into a number.
func resolvePort(p intstr.IntOrString, c api.Container) (int, error) {
	if p.Type == intstr.Int {
		return int(p.IntVal), nil
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort), nil
		}
	}
	if n, err := strconv.Atoi(p.StrVal); err == nil {
		return n, nil
	}
	return 0, fmt.Errorf("couldn't find port: %s in %s", p.StrVal, c.Name)
}

// podListener finds the running container of the pod that listens on port
// (containers share the pod's network namespace).
func (k *Kubelet) podListener(ps *podState, port int) (runtime.Handler, bool) {
	for _, c := range ps.cs {
		if c.current != nil && !c.current.Exited {
			if h, ok := c.current.Handler(port); ok {
				return h, true
			}
		}
	}
	return nil, false
}

// podHTTP sends a request to a port of the pod.
func (k *Kubelet) podHTTP(ps *podState, port int, req *runtime.Request) (*runtime.Response, bool) {
	h, ok := k.podListener(ps, port)
	if !ok {
		return nil, false
	}
	return h(req), true
}

// runHook runs a postStart hook; failed reports a hook that failed, with
// the event message upstream records.
func (k *Kubelet) runHook(ps *podState, c *containerState, h *api.LifecycleHandler) (msg string, failed bool) {
	ok, out, _ := k.hookOnce(ps, c, h)
	if ok {
		return "", false
	}
	if h.Exec != nil {
		return fmt.Sprintf("Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: command '%s' exited with %s, message: %q",
			h.Exec.Command, c.name, podFullName(ps.pod), strings.Join(h.Exec.Command, " "), out.code, out.text), true
	}
	return fmt.Sprintf("HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %s", hookPath(h), c.name, podFullName(ps.pod), out.text), true
}

type hookOutput struct{ code, text string }

func hookPath(h *api.LifecycleHandler) string {
	if h.HTTPGet != nil {
		return h.HTTPGet.Path
	}
	return ""
}

// hookOnce runs a hook handler and the virtual time it took.
func (k *Kubelet) hookOnce(ps *podState, c *containerState, h *api.LifecycleHandler) (bool, hookOutput, time.Duration) {
	switch {
	case h.Exec != nil:
		res := c.current.Exec(h.Exec.Command, runtime.ExecOptions{})
		return res.Code == 0, hookOutput{code: strconv.Itoa(res.Code), text: res.Stdout + res.Stderr}, res.Elapsed
	case h.Sleep != nil:
		return true, hookOutput{}, time.Duration(h.Sleep.Seconds) * time.Second
	case h.HTTPGet != nil:
		port, err := resolvePort(h.HTTPGet.Port, *c.spec)
		if err != nil {
			return false, hookOutput{text: err.Error()}, 0
		}
		resp, ok := k.podHTTP(ps, port, &runtime.Request{Method: "GET", Path: h.HTTPGet.Path, RemoteIP: k.opts.NodeIP})
		if !ok {
			return false, hookOutput{text: fmt.Sprintf("Get \"http://%s%s\": dial tcp %s: connect: connection refused", joinHostPort(ps.ip, port), h.HTTPGet.Path, joinHostPort(ps.ip, port))}, 0
		}
		if resp.Status >= 400 {
			return false, hookOutput{text: fmt.Sprintf("HTTP lifecycle hook failed with status code %d", resp.Status)}, 0
		}
		return true, hookOutput{}, 0
	}
	return true, hookOutput{}, 0
}

// runPreStop runs a preStop hook within the grace budget and returns the
// time it took (which comes out of the grace period).
func (k *Kubelet) runPreStop(ps *podState, c *containerState, h *api.LifecycleHandler, budget time.Duration) time.Duration {
	ok, out, took := k.hookOnce(ps, c, h)
	if took > budget {
		took = budget
	}
	if !ok {
		if h.Exec != nil {
			k.eventf(ps.pod, "Warning", "FailedPreStopHook", "PreStopHook failed: Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: command '%s' exited with %s, message: %q",
				h.Exec.Command, c.name, podFullName(ps.pod), strings.Join(h.Exec.Command, " "), out.code, out.text)
		} else {
			k.eventf(ps.pod, "Warning", "FailedPreStopHook", "PreStopHook failed: %s", out.text)
		}
	}
	return took
}
