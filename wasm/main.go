//go:build js && wasm

// Command wasm is the engine in the page: a default one-node cluster, the
// learner's terminal and the in-page Kubernetes API, behind the functions
// the page's JavaScript wraps into window.kubeplay (see bridge.go). It runs
// in a worker (playground/web/worker.js), off the page's thread.
package main

import (
	"syscall/js"
	"time"

	"kubeplay/core/sim"
	"kubeplay/playground"
)

func main() {
	mark("main")
	start := time.Now().UTC().Truncate(time.Second)
	c := sim.NewDefault(sim.Options{Seed: 1, Start: start})
	c.AddDefaultNode()
	mark("cluster")
	h := playground.NewHost(c)
	h.Pause, h.Later = slicer()
	lang := js.Global().Get("navigator").Get("language").String()
	if v := js.Global().Get("kubeplayLang"); v.Type() == js.TypeString {
		lang = v.String()
	}
	playground.NewUI(h, lang)
	mark("ui")
	// kubectl edit opens its file in the page's YAML editor.
	h.SetEditor(func(path, text string) {
		safely(func() { js.Global().Call("__kubeplayEdit", path, text) })
	})
	h.OnChange(true)

	exportBridge(h)
	go func() {
		for {
			time.Sleep(100 * time.Millisecond)
			safely(func() { h.Tick() })
		}
	}()
	// The engine runs: app.js's boot waits for this call.
	js.Global().Call("__kubeplayStarted")
	select {}
}

// mark records a point of the start on the page's performance timeline
// (app.js marks the others).
func mark(name string) {
	js.Global().Get("performance").Call("mark", "kp:"+name)
}
