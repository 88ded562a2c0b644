//go:build js && wasm

package main

import (
	"syscall/js"
)

// sliceMs is how long the engine may hold the page's thread in one go: a
// task of the browser's event loop that resumes Go (a timer, a callback)
// runs the engine until this much of it is used, then Go waits for the
// next task, so input and frames come in between and no task gets near
// the 50 ms that makes a page feel stuck.
const sliceMs = 8

// slicer returns the Host's Pause and Later. app.js records when the current task
// entered Go (globalThis.__kubeplayTaskStart); once the slice is used up,
// Pause posts itself a message and waits for it, which hands the thread
// back to the browser until that message's task. Pause runs only on the
// goroutines that drive the engine (ticks, commands, jobs), never inside
// a JavaScript callback, which must not block.
func slicer() (pause func(), later func(func())) {
	perf := js.Global().Get("performance")
	channel := js.Global().Get("MessageChannel").New()
	wake := make(chan struct{}, 1)
	channel.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	}))
	port := channel.Get("port2")
	pause = func() {
		start := js.Global().Get("__kubeplayTaskStart")
		if start.Type() != js.TypeNumber || perf.Call("now").Float()-start.Float() < sliceMs {
			return
		}
		port.Call("postMessage", nil)
		<-wake
	}
	// later runs f on its own goroutine from a timer: the timers already
	// set run first, among them xterm's, which draws a finished command's
	// output and prompt.
	later = func(f func()) {
		var cb js.Func
		cb = js.FuncOf(func(js.Value, []js.Value) any {
			cb.Release()
			go f()
			return nil
		})
		js.Global().Call("setTimeout", cb, 0)
	}
	return pause, later
}
