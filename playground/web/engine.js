// The page's side of the engine, which runs in a worker (worker.js): the
// engine's calls as promises, the DOM changes the Go side draws (the time
// controls and the cluster picture), its marks on the page's performance
// timeline, and kubectl edit's requests for the editor.

// The Go bridge's calls (wasm/bridge.go); each answers with a promise here.
const CALLS = [
  "exec", "interrupt", "advance", "complete", "writeFile", "diagnose", "save", "load", "reset",
  "describe", "editDone", "lessons", "lesson", "startLesson", "lessonStep", "leaveLesson",
  "currentLesson", "checkLesson", "trace", "fetch",
  "savePacked", // worker.js's own: save(), gzipped and base64url-encoded
];

export class Engine {
  // module is the compiled kubeplay.wasm (a promise of it); on.edit(path,
  // text) and on.stopped(message) are called when Go asks.
  constructor(module, lang, on) {
    this.on = on;
    this.worker = new Worker("worker.js", { name: "kubeplay engine" });
    this.pending = new Map(); // call id → {resolve, reject, output}
    this.nextId = 1;
    this.isBusy = false;
    this.els = new Map(); // node number → DOM node (see apply)
    this.ids = new WeakMap(); // DOM node → its number
    this.batches = []; // DOM changes not yet made: [ops, next index, gone]
    this.resume = new MessageChannel();
    this.resume.port1.onmessage = () => this.drain();
    this.started = new Promise((res, rej) => {
      this.resolveStarted = res;
      this.rejectStarted = rej;
    });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.stop(e.message || "the engine's worker failed");
    };
    // The bridge's calls, as the page used them when Go ran on its thread.
    this.go = { busy: () => this.isBusy };
    for (const name of CALLS) this.go[name] = (...args) => this.call(name, args);
    const picture = document.getElementById("picture");
    const ids = ["timebar", "picture", "legend", "picture-title"].filter((id) => document.getElementById(id));
    Promise.resolve(module).then(
      (m) => this.worker.postMessage({ init: { module: m, lang, ids, width: picture ? picture.clientWidth : 0 } }),
      (e) => this.stop(String(e && e.message ? e.message : e)),
    );
    if (picture && "ResizeObserver" in window) {
      let width = picture.clientWidth;
      new ResizeObserver(() => {
        if (picture.clientWidth !== width && picture.clientWidth > 0) {
          width = picture.clientWidth;
          this.worker.postMessage({ width });
        }
      }).observe(picture);
    }
  }

  call(name, args) {
    // These two answer nothing: nothing waits for them.
    if (name === "interrupt" || name === "editDone") {
      this.worker.postMessage({ call: 0, name, args });
      return undefined;
    }
    const id = this.nextId++;
    let output = null;
    if (name === "exec") {
      output = typeof args[2] === "function" ? args[2] : null;
      args = [String(args[0]), !!args[1], null];
    }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, output });
      this.worker.postMessage({ call: id, name, args });
    });
  }

  stop(message) {
    this.rejectStarted(new Error(message));
    for (const p of this.pending.values()) p.reject(new Error(`kubeplay: the engine stopped ${message}`));
    this.pending.clear();
    if (this.on.stopped) this.on.stopped(message);
  }

  receive(m) {
    if (m.ops) {
      this.batches.push([m.ops, 0, []]);
      if (this.batches.length === 1) this.drain();
      return;
    }
    if (m.busy !== undefined) this.isBusy = m.busy;
    if (m.result !== undefined) {
      const p = this.pending.get(m.result);
      this.pending.delete(m.result);
      if (!p) return;
      if (m.output !== undefined && p.output) p.output(m.output);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.value);
    } else if (m.text !== undefined) {
      const p = this.pending.get(m.output);
      if (p && p.output) p.output(m.text);
    } else if (m.mark) {
      performance.mark(m.mark, { startTime: Math.max(0, m.at - performance.timeOrigin) });
    } else if (m.measure) {
      const o = performance.timeOrigin;
      performance.measure(m.measure, { start: Math.max(0, m.start - o), end: Math.max(0, m.end - o), detail: m.detail });
    } else if (m.edit) {
      if (this.on.edit) this.on.edit(m.edit[0], m.edit[1]);
    } else if (m.started) {
      this.resolveStarted();
    } else if (m.stopped !== undefined) {
      this.stop(m.stopped);
    }
  }

  // drain makes the DOM changes the Go side drew, in order, for at most
  // 8 ms per task: a redraw of hundreds of chips comes as thousands of
  // changes, and the page goes on between two stretches of them (the
  // picture is then briefly half new, as it was when Go drew it itself).
  drain() {
    const end = performance.now() + 8;
    while (this.batches.length) {
      const b = this.batches[0];
      const ops = b[0];
      let i = b[1];
      while (i < ops.length) {
        this.apply(ops[i++], b[2]);
        if ((i & 63) === 0 && performance.now() > end) {
          b[1] = i;
          this.resume.port2.postMessage(null);
          return;
        }
      }
      this.batches.shift();
      // Nodes taken out and not put back are forgotten, with what they hold.
      for (const root of b[2]) {
        if (root.parentNode) continue;
        this.forget(root);
        for (const d of root.querySelectorAll("*")) this.forget(d);
      }
    }
  }

  // apply makes one change (worker.js numbers its nodes): ["g", n, id]
  // names a page element, ["c", n, ns, tag] creates, ["a", n, name,
  // value] / ["r", n, name] set and remove an attribute, ["t", n, text]
  // sets the text, ["p", parent, n, before] inserts (before 0: at the end),
  // ["x", parent, n] removes, ["e", n, type] listens. Text and attributes
  // are set as such: nothing is parsed as markup. gone collects the nodes
  // taken out.
  apply(o, gone) {
    const els = this.els;
    const el = els.get(o[1]);
    switch (o[0]) {
      case "g": {
        const found = document.getElementById(o[2]);
        if (found) this.keep(o[1], found);
        break;
      }
      case "c":
        this.keep(o[1], o[2] ? document.createElementNS(o[2], o[3]) : document.createElement(o[3]));
        break;
      case "a":
        if (el) el.setAttribute(o[2], o[3]);
        break;
      case "r":
        if (el) el.removeAttribute(o[2]);
        break;
      case "t":
        if (el) {
          if (el.firstElementChild) gone.push(...el.children);
          el.textContent = o[2];
        }
        break;
      case "p": {
        const kid = els.get(o[2]);
        if (el && kid) el.insertBefore(kid, o[3] ? els.get(o[3]) || null : null);
        break;
      }
      case "x": {
        const kid = els.get(o[2]);
        if (el && kid && kid.parentNode === el) el.removeChild(kid);
        if (kid) gone.push(kid);
        break;
      }
      case "e":
        if (el) {
          const n = o[1], type = o[2];
          el.addEventListener(type, () => this.worker.postMessage({ event: n, type, value: el.value ?? "" }));
        }
        break;
    }
  }

  keep(n, el) {
    this.els.set(n, el);
    this.ids.set(el, n);
  }

  forget(el) {
    const n = this.ids.get(el);
    if (n !== undefined) this.els.delete(n);
  }
}
