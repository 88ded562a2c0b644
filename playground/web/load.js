// The engine's download and compilation, started from the document's head
// (an async classic script) so that they overlap with loading and running
// the rest of the page's script; app.js instantiates the module from
// globalThis.kubeplayEngine.
//
// kubeplay.wasm goes straight to WebAssembly.compileStreaming whenever the
// browser gets it cheaply: sent compressed (kubeplay serve and most hosts
// encode it) or from this machine. Then V8 compiles while the bytes
// arrive and keeps the compiled code with the cached response for the next
// visit. Only a remote host that sends the 21 MB as they are gets the
// gzip file instead, unpacked here with DecompressionStream.
(() => {
  const loopback = (host) =>
    host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);

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
    if (resp.headers.get("Content-Encoding") || loopback(location.hostname) || !("DecompressionStream" in window)) {
      return compile(resp);
    }
    return compile((await gunzipped(resp)) || resp);
  }

  globalThis.kubeplayEngine = load();
  // app.js reports a failure; this keeps it from also being logged as
  // unhandled before app.js has run.
  globalThis.kubeplayEngine.catch(() => {});
})();
