//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"kubeplay/core/apiserver"
	"kubeplay/core/network"
	"kubeplay/playground"
)

// serveFetch answers window.kubeplay.fetch, whose JavaScript half (app.js)
// takes the Request apart and builds the Response:
//
//	fetch(method, url, [[name, value]…], body Uint8Array|null)
//	  → Promise<{status, statusText, headers: [[name, value]…], body: Uint8Array}>
//
// The request runs through the apiserver's REST handler with the engine
// held (between two steps of a waiting command, if one is running), the
// cluster settled after it. The whole answer is handed back at once: the
// handler's watches and log follows are streamed only by kubeplay serve.
func serveFetch(h *playground.Host, args []js.Value) js.Value {
	method, target := argString(args, 0), argString(args, 1)
	var header [][2]string
	if len(args) > 2 && args[2].InstanceOf(js.Global().Get("Array")) {
		for i, n := 0, args[2].Length(); i < n; i++ {
			p := args[2].Index(i)
			header = append(header, [2]string{p.Index(0).String(), p.Index(1).String()})
		}
	}
	var body []byte
	if len(args) > 3 && args[3].InstanceOf(js.Global().Get("Uint8Array")) {
		body = make([]byte, args[3].Length())
		js.CopyBytesToGo(body, args[3])
	}
	return promise(func() (any, error) {
		req, err := apiserver.NewRequest(method, target, body)
		if err != nil {
			return nil, fmt.Errorf("kubeplay.fetch: %v", err)
		}
		for _, f := range header {
			req.Header.Add(f[0], f[1])
		}
		rec := apiserver.NewRecorder()
		failed := true
		h.Do(func() {
			(&apiserver.Handler{Server: h.C.API, Actor: "kubectl"}).Serve(rec, req)
			failed = false
		})
		if failed {
			rec = apiserver.NewRecorder()
			apiserver.WriteError(rec, fmt.Errorf("internal error"))
		}
		return jsResponse(rec), nil
	})
}

// jsResponse is the plain object app.js turns into a Response.
func jsResponse(rec *apiserver.Recorder) js.Value {
	headers := js.Global().Get("Array").New()
	for k, vs := range rec.HeaderMap {
		for _, v := range vs {
			headers.Call("push", js.ValueOf([]any{k, v}))
		}
	}
	body := js.Global().Get("Uint8Array").New(rec.Body.Len())
	js.CopyBytesToJS(body, rec.Body.Bytes())
	res := js.Global().Get("Object").New()
	res.Set("status", rec.Code)
	res.Set("statusText", network.StatusText(rec.Code))
	res.Set("headers", headers)
	res.Set("body", body)
	return res
}
