// Package playground drives the engine for the page: it owns the cluster
// and the learner's terminal, lets virtual time follow the wall clock at
// the chosen speed, paces the commands that wait (sleep, kubectl get -w,
// delete waiting for finalizers) so their output streams as time passes,
// and interrupts them on Ctrl-C. It holds no cluster logic.
//
// This file is plain Go (no syscall/js): the native tests drive a Host with
// a fake wall clock. The page's glue lives in the files built for js.
package playground

import (
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/shell"
	"kubeplay/core/sim"
)

// Speeds the time controls offer (virtual seconds per wall-clock second).
var Speeds = []float64{1, 5, 30, 120}

// maxCatchUp bounds how much virtual time one tick lets pass, so a tab that
// slept in the background does not freeze the page when it wakes.
const maxCatchUp = 10 * time.Minute

// Host owns a cluster and its terminal and serialises everything that
// drives them: terminal commands, API requests, clock ticks.
type Host struct {
	// mu is held while the engine runs (a command, a tick, a job).
	mu sync.Mutex
	C  *sim.Cluster
	T  *sim.Terminal

	// Wall is the wall clock and SleepReal waits on it; tests replace both.
	Wall      func() time.Time
	SleepReal func(time.Duration)
	// Pause, when set, is called between two pieces of the engine's work
	// (Cluster.Yield): the page hands its one thread back to the browser
	// there once the engine has used its slice of a frame.
	Pause func()
	// OnChange is called, with the engine held, when the cluster may have
	// changed: after a command, a tick that let time pass, a job, and now
	// and then while a command waits. force is false for the calls made
	// while a command waits (the page may skip some of those).
	OnChange func(force bool)
	// Later, when set, runs f after the page has had its thread back: the
	// end of a command hands its redraw to it, so the terminal shows the
	// output and the next prompt before the picture catches up.
	Later func(f func())

	// ctl guards the clock controls and the interrupt; it is never held
	// while the engine runs.
	ctl         sync.Mutex
	playing     bool
	speed       float64
	allowed     time.Time // the virtual time the engine may reach now
	lastWall    time.Time
	interrupted bool
	inbox       []func()

	// waiting counts the commands waiting for the engine, so that a tick
	// lets them in between two instants of its catch-up.
	waiting atomic.Int32
	// running is set while a command runs, paused while the engine has
	// handed the thread back mid-work (Busy reads both).
	running, paused atomic.Bool

	// Owned by whoever holds mu.
	paced   bool           // the running command's waits follow the wall clock
	curCtx  *shell.Context // the kubectl invocation running, for Ctrl-C
	inPacer bool           // jobs run from the pacer, inside a Settle
	out     *outBuffer     // the running command's output
	// spareOut is the last command's output buffer, emptied, for the next.
	spareOut []byte

	// The trace of the last command: every write the API server committed
	// since it started (trace.go); dirty is set by any write.
	trace        []traceEntry
	traceDropped int
	traceCmd     string
	traceStart   time.Time
	dirty        bool
	origs        map[string]shell.Command

	openEditor func(path, text string) // guarded by ctl
	edits      chan editResult

	lesson *LessonState // the lesson being followed, if any
}

// NewHost wraps a cluster: a terminal on it with the waiting commands
// paced and every command interruptible.
func NewHost(c *sim.Cluster) *Host {
	h := &Host{C: c, Wall: time.Now, SleepReal: time.Sleep, playing: true, speed: 1}
	h.attach(c)
	return h
}

func (h *Host) attach(c *sim.Cluster) { h.attachTerminal(sim.NewTerminal(c)) }

// attachTerminal drives a terminal (and its cluster): a lesson's comes
// with its files and setup.
func (h *Host) attachTerminal(t *sim.Terminal) {
	c := t.Cluster
	h.C = c
	h.T = t
	// Ctrl-C stops kubectl's waits (a watch ends after a quiet spell
	// anyway: the page cannot take key presses while Go runs unpaced).
	t.Interrupted = h.isInterrupted
	h.trace, h.traceDropped, h.traceCmd, h.traceStart, h.dirty = nil, 0, "", c.Now(), true
	c.API.Observe(h.observe)
	c.Yield = h.pause
	h.allowed = c.Now()
	h.lastWall = h.Wall()
	c.AddWorker(pacer{h})
	h.origs = map[string]shell.Command{}
	sh := h.T.Shell
	for _, name := range sh.Commands() {
		orig, ok := sh.Lookup(name)
		if !ok {
			continue
		}
		h.origs[name] = orig
		sh.Register(name, h.wrap(name, orig))
	}
	sh.Register("sleep", h.wrap("sleep", h.sleep))
	if h.edits == nil {
		h.edits = make(chan editResult, 1)
	}
	sh.RegisterAt(EditorCommand, "/usr/local/bin/"+EditorCommand, h.wrap(EditorCommand, h.editCmd))
	sh.Setenv("KUBE_EDITOR", EditorCommand)
}

// Replace swaps in another cluster (a restored snapshot or a reset): a new
// terminal on it, the clock controls kept.
func (h *Host) Replace(c *sim.Cluster) {
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.C
	h.ctl.Lock()
	h.interrupted = false
	h.ctl.Unlock()
	h.attach(c)
	h.lesson = nil
	if old != nil && old != c {
		old.Close()
	}
	h.changed(true)
}

// wrap makes a command interruptible: once Ctrl-C is pressed every command
// still to run on the line returns at once, as bash's SIGINT ends the line.
func (h *Host) wrap(name string, orig shell.Command) shell.Command {
	return func(ctx *shell.Context, args []string) int {
		if h.isInterrupted() {
			return 130
		}
		if name == "kubectl" {
			prev := h.curCtx
			h.curCtx = ctx
			defer func() { h.curCtx = prev }()
		}
		code := orig(ctx, args)
		if h.isInterrupted() {
			return 130
		}
		return code
	}
}

// sleep is the terminal's `sleep` (virtual time passes, the cluster
// settles), advanced a second at a time so a paced sleep streams and
// stops on Ctrl-C. Bad operands get core's own messages.
func (h *Host) sleep(ctx *shell.Context, args []string) int {
	var total time.Duration
	for _, a := range args {
		d, ok := parseSleep(a)
		if !ok {
			return h.origs["sleep"](ctx, args)
		}
		total += d
	}
	if len(args) == 0 {
		return h.origs["sleep"](ctx, args)
	}
	if !h.paced {
		h.C.Advance(total)
		return 0
	}
	target := h.C.Now().Add(total)
	for h.C.Now().Before(target) {
		if h.isInterrupted() {
			return 130
		}
		step := target.Sub(h.C.Now())
		if step > time.Second {
			step = time.Second
		}
		h.C.Advance(step)
	}
	return 0
}

// parseSleep reads coreutils sleep's NUMBER[smhd], as the core terminal
// does (an operand it rejects is handed to core's sleep for the message).
func parseSleep(s string) (time.Duration, bool) {
	unit := time.Second
	switch {
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		s, unit = s[:len(s)-1], time.Minute
	case strings.HasSuffix(s, "h"):
		s, unit = s[:len(s)-1], time.Hour
	case strings.HasSuffix(s, "d"):
		s, unit = s[:len(s)-1], 24*time.Hour
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1e7 || v != v {
		return 0, false
	}
	return time.Duration(v * float64(unit)), true
}

func (h *Host) isInterrupted() bool {
	h.ctl.Lock()
	defer h.ctl.Unlock()
	return h.interrupted
}

// Interrupt is Ctrl-C: the running command stops waiting and the rest of
// its line is skipped.
func (h *Host) Interrupt() {
	h.ctl.Lock()
	h.interrupted = true
	h.ctl.Unlock()
}

// Busy reports whether a command is running and waiting: for time to
// pass (its pacer) or for the editor. A command that has only handed the
// thread back for a frame (Pause) is not waiting, nor is a clock tick.
func (h *Host) Busy() bool {
	return h.running.Load() && !h.paused.Load()
}

// Run runs one terminal line and writes its output to out as it is
// printed. paced commands wait on the wall clock at the chosen speed (the
// learner's terminal); unpaced ones let virtual time pass at once
// (window.kubeplay.run, lessons, tests). A panic is reported in the output
// and the cluster is kept.
func (h *Host) Run(line string, out io.Writer, paced bool) (code int) {
	h.waiting.Add(1)
	h.mu.Lock()
	h.waiting.Add(-1)
	defer h.mu.Unlock()
	h.ctl.Lock()
	h.interrupted = false
	h.ctl.Unlock()
	h.paced = paced
	h.running.Store(true)
	h.markTrace(line)
	h.out = &outBuffer{w: out, wall: h.Wall, buf: h.spareOut}
	defer func() {
		h.running.Store(false)
		h.paced, h.curCtx = false, nil
		h.out.Flush()
		h.spareOut = h.out.spare()
		h.out = nil
		if r := recover(); r != nil {
			fmt.Fprintf(out, "kubeplay: internal error: %v\n(the cluster is kept; please report this with the command that caused it)\n", r)
			if Debug {
				fmt.Fprintf(out, "%s\n", debug.Stack())
			}
			code = 1
		}
		h.catchUp()
		h.ctl.Lock()
		wasInterrupted := h.interrupted
		h.interrupted = false
		h.ctl.Unlock()
		if wasInterrupted {
			code = 130
		}
		if h.Later != nil {
			h.Later(func() { h.Do(func() {}) }) // Do redraws once it holds the engine
		} else {
			h.changed(true)
		}
	}()
	h.T.Shell.AddHistory(line)
	code = h.T.Shell.RunIO(line, strings.NewReader(""), h.out, h.out)
	return code
}

// Debug adds stacks to internal error reports.
var Debug = false

// catchUp moves the allowance up to the clock after a command let time
// pass at once, so the clock does not wait for the wall to catch up.
func (h *Host) catchUp() {
	h.ctl.Lock()
	if now := h.C.Now(); now.After(h.allowed) {
		h.allowed = now
	}
	h.ctl.Unlock()
}

// Do runs f with the engine held. While a command waits, f runs between
// two of its steps (API requests and the editor's Apply do not wait for a
// watch to end); otherwise it runs as soon as the engine is free. f must
// not run terminal commands.
func (h *Host) Do(f func()) {
	done := make(chan struct{})
	job := func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				if Debug {
					fmt.Printf("kubeplay: job panicked: %v\n%s", r, debug.Stack())
				}
			}
		}()
		f()
		if !h.inPacer {
			// Inside the pacer the Settle that called it goes on.
			h.C.Settle()
		}
	}
	h.ctl.Lock()
	h.inbox = append(h.inbox, job)
	h.ctl.Unlock()
	// If the engine is free, run the inbox now; else a waiting command's
	// pacer or the end of the command runs it.
	for {
		if h.mu.TryLock() {
			h.drain()
			h.changed(true)
			h.mu.Unlock()
		}
		select {
		case <-done:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// drain runs the jobs waiting in the inbox; the caller holds mu.
func (h *Host) drain() bool {
	h.ctl.Lock()
	jobs := h.inbox
	h.inbox = nil
	h.ctl.Unlock()
	for _, j := range jobs {
		j()
	}
	return len(jobs) > 0
}

// Tick lets virtual time follow the wall clock: called every few tens of
// milliseconds by the page. It returns whether time passed.
func (h *Host) Tick() bool {
	h.ctl.Lock()
	now := h.Wall()
	if h.playing {
		h.allowed = h.allowed.Add(time.Duration(float64(now.Sub(h.lastWall)) * h.speed))
	}
	h.lastWall = now
	h.ctl.Unlock()
	if !h.mu.TryLock() {
		return false // a command is running: its pacer lets time pass
	}
	defer h.mu.Unlock()
	h.drain()
	h.ctl.Lock()
	cur := h.C.Now()
	if h.allowed.Sub(cur) > maxCatchUp {
		h.allowed = cur.Add(maxCatchUp)
	}
	target := h.allowed
	h.ctl.Unlock()
	if !target.After(cur) {
		return false
	}
	// Instant by instant (each timer's), so that a command typed while the
	// clock catches up runs at the next instant instead of after the whole
	// stretch; Advance in pieces ends where one Advance would.
	for h.C.Now().Before(target) {
		step := target
		if next, ok := h.C.Clock.Next(); ok && next.After(h.C.Now()) && next.Before(target) {
			step = next
		}
		h.C.Advance(step.Sub(h.C.Now()))
		h.drain()
		if h.waiting.Load() > 0 {
			break
		}
		h.changed(false) // the picture keeps up during a long catch-up
	}
	h.changed(true)
	return true
}

func (h *Host) pause() {
	h.flushOutput(false)
	if h.Pause != nil {
		h.paused.Store(true)
		h.Pause()
		h.paused.Store(false)
	}
}

// flushOutput hands on the running command's output: all of it when the
// command is about to wait (all: true), else what has waited long enough.
func (h *Host) flushOutput(all bool) {
	switch {
	case h.out == nil:
	case all:
		h.out.Flush()
	default:
		h.out.flushIfHeld()
	}
}

// Advance lets d of virtual time pass at once (window.kubeplay.advance,
// the step button). While a command waits, its wait moves on by d.
func (h *Host) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	h.ctl.Lock()
	h.allowed = h.allowed.Add(d)
	h.ctl.Unlock()
	if h.mu.TryLock() {
		defer h.mu.Unlock()
		h.ctl.Lock()
		target := h.allowed
		h.ctl.Unlock()
		if d := target.Sub(h.C.Now()); d > 0 {
			h.C.Advance(d)
		}
		h.changed(true)
	}
}

// SetPlaying pauses or resumes the clock.
func (h *Host) SetPlaying(on bool) {
	h.ctl.Lock()
	defer h.ctl.Unlock()
	h.lastWall = h.Wall()
	h.playing = on
}

// SetSpeed sets how many virtual seconds pass per wall-clock second.
func (h *Host) SetSpeed(s float64) {
	if s <= 0 || s != s || s > 10000 {
		return
	}
	h.ctl.Lock()
	defer h.ctl.Unlock()
	now := h.Wall()
	if h.playing {
		h.allowed = h.allowed.Add(time.Duration(float64(now.Sub(h.lastWall)) * h.speed))
	}
	h.lastWall = now
	h.speed = s
}

// Clock reports the controls' state.
func (h *Host) Clock() (playing bool, speed float64) {
	h.ctl.Lock()
	defer h.ctl.Unlock()
	return h.playing, h.speed
}

// Now is the virtual time; safe while a command runs (the page reads it
// for the clock display).
func (h *Host) Now() time.Time { return h.C.Now() }

func (h *Host) changed(force bool) {
	if h.OnChange != nil {
		h.OnChange(force)
	}
}

// pacer is registered as the cluster's last worker. While a paced command
// waits it holds each instant back until the wall clock (at the chosen
// speed) reaches it, runs the jobs of the inbox in between, and on Ctrl-C
// sets the running kubectl's deadline so that its wait ends.
type pacer struct{ h *Host }

func (p pacer) Name() string { return "playground/pacer" }

func (p pacer) ProcessNextWorkItem() bool {
	h := p.h
	if !h.running.Load() || !h.paced {
		return false
	}
	for {
		h.inPacer = true
		ran := h.drain()
		h.inPacer = false
		if ran {
			return true
		}
		if h.isInterrupted() {
			if h.curCtx != nil {
				h.curCtx.Deadline = h.C.Now()
			}
			return false
		}
		h.ctl.Lock()
		now := h.C.Now()
		ahead := now.Sub(h.allowed)
		playing, speed := h.playing, h.speed
		h.ctl.Unlock()
		if ahead <= 0 {
			return false
		}
		h.changed(false)
		wait := 50 * time.Millisecond
		if playing {
			if w := time.Duration(float64(ahead) / speed); w < wait {
				wait = w
			}
		}
		if wait < time.Millisecond {
			wait = time.Millisecond
		}
		h.flushOutput(true)
		h.SleepReal(wait)
		h.ctl.Lock()
		wall := h.Wall()
		if h.playing {
			h.allowed = h.allowed.Add(time.Duration(float64(wall.Sub(h.lastWall)) * h.speed))
		}
		h.lastWall = wall
		h.ctl.Unlock()
	}
}

var fileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-][A-Za-z0-9_./-]{0,99}$`) })

// WriteFile saves the editor's text as a file of the terminal (relative to
// its working directory), so `kubectl apply -f NAME` reads it.
func (h *Host) WriteFile(name string, data []byte) error {
	if !fileName().MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, "/") {
		return fmt.Errorf("%q is not a file name the editor can save (letters, digits, . _ - and /)", name)
	}
	if len(data) > 1<<20 {
		return fmt.Errorf("the manifest is larger than 1 MiB")
	}
	var err error
	h.Do(func() {
		p := name
		if !strings.HasPrefix(p, "/") {
			p = strings.TrimSuffix(h.T.Shell.Cwd, "/") + "/" + p
		}
		if i := strings.LastIndex(p, "/"); i > 0 {
			if e := h.T.FS.MkdirAll(p[:i], 0o755); e != nil {
				err = e
				return
			}
		}
		err = h.T.FS.WriteFile(p, data, 0o644)
	})
	return err
}

// Started is when the cluster was created (its default namespace's
// creation time), for the clock's "since start".
func (h *Host) Started() time.Time {
	ns, err := client.Get[*api.Namespace](h.C.Client("playground"), "", "default")
	if err != nil || ns == nil {
		return h.C.Now()
	}
	return ns.CreationTimestamp.Time
}

// TakeDirty reports whether the API server committed a write since the
// last call (the picture is redrawn only then); the caller holds the engine.
func (h *Host) TakeDirty() bool {
	d := h.dirty
	h.dirty = false
	return d
}
