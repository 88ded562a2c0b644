// The engine's thread: a dedicated worker that runs the Go program
// (kubeplay.wasm), so that the cluster's work and Go's garbage collector,
// whose marking takes one stretch of 40–60 ms here, never hold the page's
// thread. The page (engine.js) talks to it with messages:
//
//	page → worker
//	  {init: {module, lang, ids, width}}        start Go on the compiled module
//	  {call: id, name, args}                     a method of the Go bridge (wasm/bridge.go),
//	                                             or savePacked (the state, gzipped)
//	  {event: node, type, value}                 a DOM event on a node Go listens to
//	  {width}                                    the picture's new width
//	worker → page
//	  {ops: [...]}                               DOM changes for the page to apply (engine.js)
//	  {result: id, value|error, output?, busy}   a call's answer (with the
//	                                             rest of exec's output)
//	  {output: id, text}                         a running command's output
//	  {busy}                                     the engine's busy() changed
//	  {mark: name, at} / {measure: name, start, end, detail}   the performance timeline
//	  {edit: [path, text]}                       kubectl edit opens the editor
//	  {started: true} / {stopped: message}
//
// The Go side draws the time controls and the cluster picture with a
// handful of DOM calls (playground/ui_js.go, svgdom_js.go); here they go to
// stand-in nodes that record each change, and the changes reach the page
// each time Go hands the thread back, in messages of at most 2,048.

/* global Go */
import { pack } from "./pack.js";

importScripts("wasm_exec.js");

// The lessons are not in the WebAssembly: they come as one bundle
// (lessons.Pack's), fetched while the engine starts; the calls that read
// them wait for it (see call). Its .gz is unpacked here unless the host
// sent it encoded; without DecompressionStream the plain file is fetched.
const LESSON_CALLS = new Set([
  "lessons", "lesson", "startLesson", "lessonStep", "leaveLesson", "currentLesson", "checkLesson", "load",
]);
const lessonsFetched = fetchLessons().then(
  (bytes) => {
    globalThis.__kubeplayLessons = bytes;
  },
  (e) => {
    globalThis.__kubeplayLessonsError = String(e && e.message ? e.message : e);
  },
);

async function fetchLessons() {
  const packed = typeof DecompressionStream === "function";
  const name = packed ? "lessons.bin.gz" : "lessons.bin";
  const resp = await fetch(name);
  if (!resp.ok) throw new Error(`${name}: ${resp.status} ${resp.statusText}`);
  const body = !packed || resp.headers.get("Content-Encoding") ? resp.body : resp.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(body).arrayBuffer());
}

const origin = performance.timeOrigin;
let ops = [];
let flushQueued = false;
let lastBusy = false;

function send(msg, transfer) {
  flush();
  postMessage(msg, transfer || []);
}

// flush sends the DOM changes and the commands' output gathered so far.
function flush() {
  if (ops.length > 0) {
    const batch = ops;
    ops = [];
    postMessage({ ops: batch });
  }
  for (const [id, text] of outputs) postMessage({ output: id, text });
  outputs.clear();
}

// A running command's output is gathered until Go hands the thread back;
// a command that ends meanwhile takes its output along with its answer,
// so that the page gets both in one task.
const outputs = new Map(); // call id → text
function output(id, text) {
  outputs.set(id, (outputs.get(id) || "") + text);
  afterGoSoon();
}

// afterGoSoon runs afterGo once Go has handed the thread back (a
// microtask runs only when no wasm is on the stack).
function afterGoSoon() {
  if (!flushQueued) {
    flushQueued = true;
    queueMicrotask(afterGo);
  }
}

// op records one DOM change; the batch goes out once Go has handed the
// thread back.
function op(...a) {
  ops.push(a);
  // A redraw of hundreds of chips makes tens of thousands of changes in
  // one slice of Go; the page takes them in parts, each message small.
  if (ops.length >= 2048) {
    postMessage({ ops });
    ops = [];
  }
  afterGoSoon();
}

// afterGo runs when Go has handed the thread back: the changes it drew go
// to the page, and so does a change of busy().
function afterGo() {
  flush();
  const go = globalThis.__kubeplayGo; // set by Go's main
  if (go) {
    // busy() enters Go too (and Go runs whatever goroutines are ready,
    // hence the second flush); flushQueued, still set, keeps that from
    // queueing another afterGo.
    const b = !!go.busy();
    if (b !== lastBusy) {
      lastBusy = b;
      postMessage({ busy: b });
    }
  }
  flushQueued = false;
  flush();
}

// Stand-in DOM: nodes are numbered; the page keeps the real ones by number.
let nextId = 1;
const nodes = new Map(); // id → RNode, for events

class RNode {
  constructor(id) {
    this.id = id;
    this.kids = [];
    this.parent = null;
    this.listeners = new Map();
    this.value = "";
    this.clientWidth = 0;
  }
  setAttribute(name, value) {
    op("a", this.id, String(name), String(value));
  }
  removeAttribute(name) {
    op("r", this.id, String(name));
  }
  set textContent(s) {
    for (const k of this.kids) k.parent = null;
    this.kids = [];
    op("t", this.id, String(s));
  }
  get firstChild() {
    return this.kids[0] || null;
  }
  detach(k) {
    if (!k.parent) return;
    const i = k.parent.kids.indexOf(k);
    if (i >= 0) k.parent.kids.splice(i, 1);
    k.parent = null;
  }
  appendChild(k) {
    return this.insertBefore(k, null);
  }
  insertBefore(k, ref) {
    this.detach(k);
    const i = ref ? this.kids.indexOf(ref) : -1;
    if (i >= 0) this.kids.splice(i, 0, k);
    else this.kids.push(k);
    k.parent = this;
    op("p", this.id, k.id, ref ? ref.id : 0);
    return k;
  }
  removeChild(k) {
    this.detach(k);
    op("x", this.id, k.id);
    return k;
  }
  addEventListener(type, fn) {
    if (!this.listeners.has(type)) {
      this.listeners.set(type, []);
      nodes.set(this.id, this);
      op("e", this.id, String(type));
    }
    this.listeners.get(type).push(fn);
  }
}

function newNode(ns, tag) {
  const n = new RNode(nextId++);
  op("c", n.id, ns, String(tag));
  return n;
}

const byId = new Map(); // the page's elements Go looks up by id
let picture = null;
const resizeCallbacks = [];

globalThis.document = {
  getElementById(id) {
    return byId.get(String(id)) || null;
  },
  createElement(tag) {
    return newNode("", tag);
  },
  createElementNS(ns, tag) {
    return newNode(String(ns), tag);
  },
};

// ResizeObserver: the page observes the picture and sends its width.
globalThis.ResizeObserver = class {
  constructor(cb) {
    this.cb = cb;
  }
  observe() {
    resizeCallbacks.push(this.cb);
  }
};

// The performance timeline the browser suite and profiler read is the
// page's: marks and measures are sent there, in the page's time.
performance.mark = (name) => send({ mark: String(name), at: origin + performance.now() });
performance.measure = (name, o) =>
  send({ measure: String(name), start: origin + o.start, end: origin + o.end, detail: o.detail });

globalThis.__kubeplayStarted = () => send({ started: true });
globalThis.__kubeplayEdit = (path, text) => send({ edit: [String(path), String(text)] });

function start({ module, lang, ids, width }) {
  globalThis.kubeplayLang = lang;
  for (const id of ids) {
    const n = new RNode(nextId++);
    op("g", n.id, id);
    byId.set(id, n);
  }
  picture = byId.get("picture") || null;
  if (picture) picture.clientWidth = width;
  const goRuntime = new Go();
  // Every task that enters Go goes through _resume; the engine reads when
  // the task began to know when to hand the thread back (wasm/slice.go),
  // so that calls from the page are answered between two slices.
  const resume = goRuntime._resume;
  let depth = 0;
  goRuntime._resume = function () {
    if (depth++ === 0) globalThis.__kubeplayTaskStart = performance.now();
    try {
      return resume.call(this);
    } finally {
      if (--depth === 0) afterGoSoon();
    }
  };
  WebAssembly.instantiate(module, goRuntime.importObject).then((instance) => {
    send({ mark: "kp:compiled", at: origin + performance.now() });
    globalThis.__kubeplayTaskStart = performance.now();
    goRuntime.run(instance).then(
      () => send({ stopped: "" }),
      (e) => send({ stopped: String(e) }),
    );
  }, (e) => send({ stopped: String(e && e.message ? e.message : e) }));
}

async function call({ call: id, name, args }) {
  const go = globalThis.__kubeplayGo;
  try {
    // savePacked: the page state, gzipped and base64url-encoded here, off
    // the page's thread (a cluster of 500 pods takes 40 ms to compress).
    if (name === "savePacked") {
      answer(id, { value: await pack(await go.save()) });
      return;
    }
    const f = go && go[name];
    if (typeof f !== "function") throw new Error(`kubeplay: no engine call ${name}`);
    if (LESSON_CALLS.has(name)) {
      await lessonsFetched;
      if (name === "lessons" && globalThis.__kubeplayLessonsError) {
        throw new Error(`the lessons did not load: ${globalThis.__kubeplayLessonsError}`);
      }
    }
    // exec's third argument is the page's output callback: here it sends
    // the output on.
    if (name === "exec") args[2] = (text) => output(id, String(text));
    const value = await f.apply(go, args);
    // Bytes (save's state, fetch's body) move to the page without a copy.
    const bytes = value instanceof Uint8Array ? value : value && value.body;
    answer(id, { value }, bytes instanceof Uint8Array ? [bytes.buffer] : []);
  } catch (e) {
    answer(id, { error: String(e && e.message ? e.message : e) });
  }
}

// answer sends a call's answer; calls numbered 0 (interrupt, editDone)
// wait for none.
function answer(id, msg, transfer) {
  if (id === 0) return;
  msg.result = id;
  if (outputs.has(id)) {
    msg.output = outputs.get(id);
    outputs.delete(id);
  }
  const go = globalThis.__kubeplayGo;
  lastBusy = !!(go && go.busy());
  msg.busy = lastBusy;
  send(msg, transfer);
}

onmessage = (e) => {
  const m = e.data;
  if (m.init) start(m.init);
  else if (m.call !== undefined) call(m);
  else if (m.event !== undefined) {
    const n = nodes.get(m.event);
    if (!n) return;
    n.value = String(m.value ?? "");
    for (const fn of n.listeners.get(m.type) || []) fn();
  } else if (m.width !== undefined && picture) {
    picture.clientWidth = m.width;
    for (const cb of resizeCallbacks) cb();
  }
};
