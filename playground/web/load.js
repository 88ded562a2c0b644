// The engine's download and compilation, started from the document's head
// (an async classic script) so that they overlap with loading and running
// the rest of the page's script; app.js instantiates the module from
// globalThis.kubeplayEngine.
//
// kubeplay.wasm goes straight to WebAssembly.compileStreaming when the
// server sent it compressed (kubeplay serve and most hosts encode it):
// then V8 compiles while the bytes arrive and keeps the compiled code with
// the cached response for the next visit. A host that sends the 21 MB as
// they are gets the gzip file fetched instead and unpacked here with
// DecompressionStream (the browser's cache did not keep the raw file).
(() => {

  async function compile(resp) {
    const type = (resp.headers.get("Content-Type") || "").split(";")[0].trim();
    if (WebAssembly.compileStreaming && type === "application/wasm") return WebAssembly.compileStreaming(resp);
    return WebAssembly.compile(await resp.arrayBuffer());
  }

  async function gunzipped(raw) {
    let gz;
    try {
      gz = await fetch("kubeplay.wasm.gz");
    } catch (e) {
      gz = null;
    }
    if (!gz || !gz.ok) return null;
    raw.body.cancel().catch(() => {});
    // A host that labels the .gz with Content-Encoding: gzip has had the
    // browser unpack it already.
    const body = gz.headers.get("Content-Encoding") ? gz.body : gz.body.pipeThrough(new DecompressionStream("gzip"));
    return new Response(body, { headers: { "Content-Type": "application/wasm" } });
  }

  async function load() {
    const resp = await fetch("kubeplay.wasm");
    if (!resp.ok) throw new Error(`kubeplay.wasm: ${resp.status} ${resp.statusText}`);
    if (resp.headers.get("Content-Encoding") || !("DecompressionStream" in window)) {
      return compile(resp);
    }
    return compile((await gunzipped(resp)) || resp);
  }

  globalThis.kubeplayEngine = load();
  // app.js reports a failure; this keeps it from also being logged as
  // unhandled before app.js has run.
  globalThis.kubeplayEngine.catch(() => {});
})();
