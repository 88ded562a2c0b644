//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"syscall/js"
	"time"
	"unicode/utf8"

	"kubeplay/core/sim"
	"kubeplay/playground"
)

// exportBridge sets globalThis.__kubeplayGo in the engine's worker
// (playground/web/worker.js), whose calls the page makes through messages
// (engine.js) to build window.kubeplay, the terminal and the panels:
//
//	exec(line, paced, onOutput) → Promise<{code, output}>
//	interrupt()
//	advance(seconds) → Promise<void>
//	complete(line) → {start, items}
//	busy() → bool
//	writeFile(name, text) → Promise<void>   (a file of the terminal)
//	diagnose(text) → [{line, column, message}]   (the editor's markers)
//	save() → Promise<Uint8Array>   (page state, JSON)
//	load(json) → Promise<void>   (rejects, changing nothing, on bad state)
//	reset() → Promise<void>   (a new default cluster)
//	describe(kind, namespace, name) → Promise<JSON>   (playground.Details)
//	trace() → Promise<JSON>   (playground.Trace: the writes of the last command)
//	lessons() → JSON, lesson(name) → JSON|null, startLesson(name, step) → Promise,
//	lessonStep(step) → Promise, leaveLesson() → Promise,
//	currentLesson() → Promise<JSON|null>, checkLesson() → Promise<JSON>
//	editDone(saved, text)   (the editor's answer to kubectl edit; Go calls
//	                         globalThis.__kubeplayEdit(path, text) to ask)
//	fetch(method, url, headers, body) → Promise   (the in-page API; fetch.go)
//
// Every function recovers from a Go panic and reports it instead of
// taking the page down.
func exportBridge(h *playground.Host) {
	b := js.Global().Get("Object").New()
	b.Set("exec", fn(func(args []js.Value) any {
		line := argString(args, 0)
		paced := len(args) > 1 && args[1].Truthy()
		var onOut js.Value
		if len(args) > 2 && args[2].Type() == js.TypeFunction {
			onOut = args[2]
		}
		return promise(func() (any, error) {
			var all bytes.Buffer
			w := &textWriter{emit: func(s string) {
				all.WriteString(s)
				if onOut.Truthy() {
					safely(func() { onOut.Invoke(s) })
				}
			}}
			code := h.Run(line, w, paced)
			w.flush()
			res := js.Global().Get("Object").New()
			res.Set("code", code)
			res.Set("output", all.String())
			return res, nil
		})
	}))
	b.Set("interrupt", fn(func([]js.Value) any {
		h.Interrupt()
		return nil
	}))
	b.Set("advance", fn(func(args []js.Value) any {
		secs := 0.0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			secs = args[0].Float()
		}
		return promise(func() (any, error) {
			if secs < 0 || secs != secs || secs > 1e7 {
				return nil, fmt.Errorf("advance: seconds must be between 0 and 1e7, got %v", secs)
			}
			h.Advance(time.Duration(secs * float64(time.Second)))
			// A command that waits consumes the step itself; otherwise the
			// clock has moved when Advance returns.
			return nil, nil
		})
	}))
	b.Set("complete", fn(func(args []js.Value) any {
		start, items := h.Complete(argString(args, 0))
		arr := js.Global().Get("Array").New()
		for _, it := range items {
			arr.Call("push", it)
		}
		res := js.Global().Get("Object").New()
		res.Set("start", start)
		res.Set("items", arr)
		return res
	}))
	b.Set("busy", fn(func([]js.Value) any { return h.Busy() }))
	b.Set("writeFile", fn(func(args []js.Value) any {
		name, text := argString(args, 0), argString(args, 1)
		return promise(func() (any, error) {
			return nil, h.WriteFile(name, []byte(text))
		})
	}))
	b.Set("save", fn(func([]js.Value) any {
		return promise(func() (any, error) {
			b, err := h.Save()
			if err != nil {
				return nil, err
			}
			// Bytes, not a string: the page gzips them as they are,
			// where a string of megabytes is decoded here and encoded
			// again there, each in one long piece.
			arr := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(arr, b)
			return arr, nil
		})
	}))
	b.Set("load", fn(func(args []js.Value) any {
		data := argString(args, 0)
		return promise(func() (any, error) {
			return nil, h.Load([]byte(data))
		})
	}))
	b.Set("reset", fn(func([]js.Value) any {
		return promise(func() (any, error) {
			h.Reset(sim.Options{Seed: 1, Start: time.Now().UTC().Truncate(time.Second)})
			return nil, nil
		})
	}))
	b.Set("describe", fn(func(args []js.Value) any {
		kind, ns, name := argString(args, 0), argString(args, 1), argString(args, 2)
		return promise(func() (any, error) {
			b, err := json.Marshal(h.Describe(kind, ns, name))
			return string(b), err
		})
	}))
	b.Set("editDone", fn(func(args []js.Value) any {
		h.EditDone(len(args) > 0 && args[0].Truthy(), argString(args, 1))
		return nil
	}))
	b.Set("lessons", fn(func([]js.Value) any {
		b, _ := json.Marshal(playground.LessonList())
		return string(b)
	}))
	b.Set("lesson", fn(func(args []js.Value) any {
		l, err := playground.FindLesson(argString(args, 0))
		if err != nil {
			return nil
		}
		b, _ := json.Marshal(l)
		return string(b)
	}))
	b.Set("startLesson", fn(func(args []js.Value) any {
		name := argString(args, 0)
		step := 0
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			step = args[1].Int()
		}
		return promise(func() (any, error) {
			// On a whole minute, as `kubeplay lesson` starts (sim.DefaultStart):
			// minute schedules (CronJobs) then fire at the same points of the
			// lesson, whatever second the learner opened it at.
			return nil, h.StartLesson(name, step, sim.Options{Seed: 1, Start: time.Now().UTC().Truncate(time.Minute)})
		})
	}))
	b.Set("lessonStep", fn(func(args []js.Value) any {
		step := -1
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			step = args[0].Int()
		}
		return promise(func() (any, error) { return nil, h.SetLessonStep(step) })
	}))
	b.Set("leaveLesson", fn(func([]js.Value) any {
		return promise(func() (any, error) {
			h.LeaveLesson()
			return nil, nil
		})
	}))
	b.Set("currentLesson", fn(func([]js.Value) any {
		return promise(func() (any, error) {
			b, err := json.Marshal(h.Lesson())
			return string(b), err
		})
	}))
	b.Set("checkLesson", fn(func([]js.Value) any {
		return promise(func() (any, error) {
			res, err := h.CheckLesson()
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(res)
			return string(b), err
		})
	}))
	b.Set("trace", fn(func([]js.Value) any {
		return promise(func() (any, error) { return h.TraceJSON(), nil })
	}))
	b.Set("diagnose", fn(func(args []js.Value) any {
		arr := js.Global().Get("Array").New()
		for _, m := range h.Diagnose(argString(args, 0)) {
			o := js.Global().Get("Object").New()
			o.Set("line", m.Line)
			o.Set("column", m.Column)
			o.Set("message", m.Message)
			arr.Call("push", o)
		}
		return arr
	}))
	b.Set("fetch", fn(func(args []js.Value) any { return serveFetch(h, args) }))
	js.Global().Set("__kubeplayGo", b)
}

func argString(args []js.Value, i int) string {
	if i < len(args) && args[i].Type() == js.TypeString {
		return args[i].String()
	}
	if i < len(args) && !args[i].IsUndefined() && !args[i].IsNull() {
		return args[i].Call("toString").String()
	}
	return ""
}

// fn wraps a Go function for JS, recovering from panics (reported on the
// console as a warning, since they are the engine's bugs, not the page's).
func fn(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
		defer func() {
			if r := recover(); r != nil {
				js.Global().Get("console").Call("warn", fmt.Sprintf("kubeplay: %v", r))
				ret = nil
			}
		}()
		return f(args)
	})
}

// promise runs f on its own goroutine (JS callbacks must not block) and
// settles a Promise with its result.
func promise(f func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		executor.Release()
		go func() {
			var (
				v   any
				err error
			)
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("kubeplay: internal error: %v", r)
						if playground.Debug {
							err = fmt.Errorf("%v\n%s", err, debug.Stack())
						}
					}
				}()
				v, err = f()
			}()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// safely runs f and swallows a panic (logging it), for the clock's ticks
// and output callbacks.
func safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			js.Global().Get("console").Call("warn", fmt.Sprintf("kubeplay: %v", r))
		}
	}()
	f()
}

// textWriter hands output on as whole UTF-8 characters: a write that ends
// inside a character keeps its first bytes for the next one.
type textWriter struct {
	emit func(string)
	rest []byte
}

func (w *textWriter) Write(p []byte) (int, error) {
	buf := append(w.rest, p...)
	cut := len(buf)
	// Keep an incomplete character at the end (at most 3 bytes).
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-3; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	w.rest = append([]byte(nil), buf[cut:]...)
	if cut > 0 {
		w.emit(string(buf[:cut]))
	}
	return len(p), nil
}

func (w *textWriter) flush() {
	if len(w.rest) > 0 {
		w.emit(string(w.rest))
		w.rest = nil
	}
}
