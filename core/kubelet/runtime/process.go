package runtime

import (
	"fmt"
	"strings"
	"time"

	"kubeplay/core/clock"
)

// Signals the runtime delivers.
const (
	SIGKILL = 9
	SIGTERM = 15
)

// Process is one process in a container. A process whose program is a
// script runs the shell on its own goroutine as a coroutine: it runs only
// while the driver waits for it, and hands control back whenever it
// sleeps or exits, so runs stay deterministic. Daemons the runtime knows
// (nginx, pause, a plain sleep) run without a goroutine.
type Process struct {
	Pid     int
	Argv    []string
	Started time.Time
	// title is what the program shows ps instead of its arguments
	// (nginx: "nginx: master process ...").
	title  string
	c      *Container
	exited bool
	code   int
	// onSignal handles a signal for a native program; nil means the
	// default action (for PID 1, which ignores signals it has no handler
	// for, only SIGKILL).
	onSignal func(sig int)
	// coroutine plumbing, nil for native programs
	resume chan int // 0 wakes a sleeper; a signal number kills it
	yield  chan yieldMsg
	timer  *clock.Timer
	parked bool // waiting forever (sleep infinity, a daemon)
	// traps are the signals the program handles itself (nginx: TERM, QUIT).
	traps map[int]bool
	// execSleep passes time for an exec'd command, which runs to the end
	// synchronously instead of as a coroutine.
	execSleep func(d time.Duration)
}

type yieldMsg struct {
	exit  bool
	code  int
	sleep time.Duration // < 0: park until signalled
}

// killedBy unwinds a coroutine whose process was killed.
type killedBy struct{ sig int }

// Command line, as ps prints it.
func (p *Process) CommandLine() string {
	if p.title != "" {
		return p.title
	}
	return strings.Join(p.Argv, " ")
}

// Exited reports whether the process has ended, and its status.
func (p *Process) Exited() (bool, int) { return p.exited, p.code }

// startCoroutine runs body on its own goroutine, stepping it until it first
// sleeps or ends.
func (p *Process) startCoroutine(body func() int) {
	p.resume = make(chan int)
	p.yield = make(chan yieldMsg)
	go func() {
		<-p.resume
		code := 0
		func() {
			defer func() {
				if r := recover(); r != nil {
					if k, ok := r.(killedBy); ok {
						code = 128 + k.sig
						return
					}
					// A bug in a program must not take the page down: the
					// process dies as a crashed program would.
					fmt.Fprintf(&p.c.stderr, "%s: internal error: %v\n", p.Argv[0], r)
					code = 134
				}
			}()
			code = body()
		}()
		p.yield <- yieldMsg{exit: true, code: code}
	}()
	p.step(0)
}

// step resumes the coroutine (with a signal, or 0) and handles what it
// does next.
func (p *Process) step(sig int) {
	p.parked = false
	p.resume <- sig
	msg := <-p.yield
	switch {
	case msg.exit:
		p.resume, p.yield = nil, nil
		p.exit(msg.code)
	case msg.sleep < 0:
		p.parked = true
	default:
		p.timer = p.c.rt.clock.AfterFunc(msg.sleep, func() {
			p.timer = nil
			p.step(0)
		})
	}
}

// sleep is called from inside the coroutine: it hands control back for d
// of virtual time (forever when d < 0). It returns 0 when the time is up,
// or a signal the program traps; any other signal kills the process.
func (p *Process) sleep(d time.Duration) int {
	if p.execSleep != nil {
		p.execSleep(d)
		return 0
	}
	if p.yield == nil {
		return 0
	}
	p.yield <- yieldMsg{sleep: d}
	sig := <-p.resume
	if sig != 0 && (sig == SIGKILL || !p.traps[sig]) {
		panic(killedBy{sig})
	}
	return sig
}

// Signal delivers sig. PID 1 ignores signals it does not handle, except
// SIGKILL; other processes die of them.
func (p *Process) Signal(sig int) {
	if p.exited {
		return
	}
	if p.onSignal != nil && sig != SIGKILL {
		p.onSignal(sig)
		return
	}
	if p.Pid == 1 && sig != SIGKILL && !p.traps[sig] {
		return
	}
	if p.resume != nil {
		if p.timer != nil {
			p.c.rt.clock.Stop(p.timer)
			p.timer = nil
		}
		p.step(sig)
		return
	}
	p.exit(128 + sig)
}

// exit ends the process and, for PID 1, the container.
func (p *Process) exit(code int) {
	if p.exited {
		return
	}
	p.exited, p.code = true, code
	if p.timer != nil {
		p.c.rt.clock.Stop(p.timer)
		p.timer = nil
	}
	p.c.processExited(p)
}
