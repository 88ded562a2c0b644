//go:build js && wasm

package main

import (
	"syscall/js"
)

// sliceMs is how long the engine may hold its worker's thread in one go:
// a task that resumes Go (a timer, a message) runs the engine until this
// much of it is used, then Go waits for a later task, so the page's calls
// (a typed command, kubeplay.fetch) are answered in between.
const sliceMs = 8

// restMs is how long the engine rests after a slice it used up (catching
// up with a clock it cannot keep pace with). The page's thread shares two
// cores with the engine's worker, the compositor and the GPU process: a
// frame of 15–30 ms of work took 50–110 ms when the worker never rested,
// up to 73 ms with rests of 4 ms, and stays under 50 ms with 8 (the
// 500-pod rollout at 30× in the browser suite).
const restMs = 8

// slicer returns the Host's Pause and Later. The worker (worker.js)
// records when the current task entered Go (globalThis.__kubeplayTaskStart);
// once the slice is used up, Pause sets a timer and waits for it, which
// hands the worker's thread back (the page's calls are answered in
// between) and rests it for restMs. Pause runs only on the goroutines that
// drive the engine (ticks, commands, jobs), never inside a JavaScript
// callback, which must not block.
func slicer() (pause func(), later func(func())) {
	perf := js.Global().Get("performance")
	wake := make(chan struct{}, 1)
	wakeUp := js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	})
	pause = func() {
		start := js.Global().Get("__kubeplayTaskStart")
		if start.Type() != js.TypeNumber || perf.Call("now").Float()-start.Float() < sliceMs {
			return
		}
		js.Global().Call("setTimeout", wakeUp, restMs)
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
