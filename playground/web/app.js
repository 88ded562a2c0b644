// The page's entry: loads the engine (Go compiled to WebAssembly), sets up
// window.kubeplay ({ready, run, advance, fetch}), the terminal and the
// themes. The engine runs in a worker (engine.js, worker.js); the time
// controls and the cluster picture are drawn by its Go side
// (playground/ui_js.go) into #timebar and #picture through engine.js.

import "./style.css";
import { Console } from "./terminal.js";
import { Persistence } from "./persist.js";
import { Details } from "./details.js";
import { TracePanel } from "./trace.js";
import { LessonPanel } from "./lesson.js";
import { strings, pickLang } from "./i18n.js";
import { Engine } from "./engine.js";

// The start-up is marked on the page's performance timeline (kp:…, read by
// the browser suite and visible in the browser's profiler); boot() lists
// the marks in order.
const mark = (name) => performance.mark("kp:" + name);
mark("script");

const params = new URLSearchParams(location.search);
// Embed mode (?embed=1): minimal chrome for an iframe in documentation;
// the learner's saved cluster is neither read nor written there.
const embed = params.get("embed") === "1";
const lang = pickLang();
const T = strings[lang];
globalThis.kubeplayLang = lang;
document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";

// window.kubeplay: the page's public API (DESIGN.md). ready resolves once
// the engine runs; run(line) runs a terminal line with virtual time passing
// at once and resolves to its output; advance(seconds) lets time pass;
// fetch(input, init) is the in-page Kubernetes API.
const kp = (window.kubeplay = window.kubeplay || {});
let resolveReady, rejectReady;
kp.ready = new Promise((res, rej) => {
  resolveReady = res;
  rejectReady = rej;
});
// engineUp resolves once the engine runs (before a page's setup commands);
// kp.ready after them.
let resolveEngine;
const engineUp = new Promise((res) => (resolveEngine = res));
let engine; // the engine's worker (engine.js)
const go = () => engine.go;
let term, editor, persist, trace, lessons;
let booted = false;

kp.run = async (line) => {
  await engineUp;
  const text = String(line);
  const r = await go().exec(text, false, null);
  if (term) term.echo(text, r.output);
  return r.output;
};
kp.advance = async (seconds) => {
  await engineUp;
  const s = Number(seconds);
  if (!Number.isFinite(s) || s < 0) throw new TypeError("kubeplay.advance: seconds must be a non-negative number");
  await go().advance(s);
};
kp.fetch = async (input, init) => {
  await engineUp;
  const req = input instanceof Request && init === undefined ? input : new Request(input, init);
  const body = req.method === "GET" || req.method === "HEAD" ? null : new Uint8Array(await req.arrayBuffer());
  const r = await go().fetch(req.method, req.url, [...req.headers], body);
  // These statuses may not carry a body.
  const empty = [101, 204, 205, 304].includes(r.status);
  return new Response(empty ? null : r.body, { status: r.status, statusText: r.statusText, headers: r.headers });
};

// _terminalText is the terminal's whole buffer as text (for tests).
kp._terminalText = () => {
  if (!term) return "";
  const b = term.term.buffer.active;
  const lines = [];
  for (let i = 0; i < b.length; i++) {
    const l = b.getLine(i);
    if (!l) continue;
    const s = l.translateToString(true);
    if (l.isWrapped && lines.length) lines[lines.length - 1] += s;
    else lines.push(s);
  }
  return lines.join("\n").replace(/\n+$/, "\n");
};

kp._editor = () => editor;
// _saving says whether the page state is still being saved (for tests:
// the engine's worker answers a save in its own time).
kp._saving = () => !!persist && persist.pending();

// Themes: light and dark follow the system setting.
const dark = window.matchMedia("(prefers-color-scheme: dark)");
function termTheme() {
  return dark.matches
    ? { background: "#11151c", foreground: "#d8dee9", cursor: "#d8dee9", selectionBackground: "#3b4252" }
    : { background: "#fbfbfd", foreground: "#1d2330", cursor: "#1d2330", selectionBackground: "#c8d3e6",
        black: "#1d2330", green: "#1a7f37", brightGreen: "#1a7f37", yellow: "#7d5c00", brightYellow: "#7d5c00",
        blue: "#0550ae", cyan: "#0a6b7c", white: "#6e7781", brightBlack: "#57606a" };
}

// engineModule is the compiled engine: load.js (in the document's head)
// starts it; should that script not have run yet, its load event is
// awaited.
function engineModule() {
  if (globalThis.kubeplayEngine) return globalThis.kubeplayEngine;
  return new Promise((resolve, reject) => {
    const script = document.getElementById("load-engine");
    if (!script) {
      reject(new Error("the page has no load.js"));
      return;
    }
    script.addEventListener("load", () => resolve(globalThis.kubeplayEngine));
    script.addEventListener("error", () => reject(new Error("load.js did not load")));
  });
}

// boot starts the engine's worker on the compiled module and waits until
// Go runs there (its main calls __kubeplayStarted).
async function boot() {
  engine = new Engine(engineModule(), lang, {
    edit: (path, text) => globalThis.__kubeplayEdit(path, text),
    stopped: (message) => term && term.term.write(`\r\n\x1b[31m${T.stopped} ${message}\x1b[0m\r\n`),
  });
  // The bridge's calls, for the page's own modules and for tests.
  globalThis.__kubeplayGo = engine.go;
  await engine.started;
  mark("engine");
}

function setTexts() {
  for (const el of document.querySelectorAll("[data-t]")) {
    const k = el.getAttribute("data-t");
    if (T[k]) el.textContent = T[k];
  }
  const sw = document.getElementById("lang-switch");
  if (sw) {
    const other = lang === "zh" ? "en" : "zh";
    const q = new URLSearchParams(location.search);
    q.set("lang", other);
    sw.href = "?" + q.toString();
    sw.textContent = T.otherLang;
    sw.lang = other === "zh" ? "zh-CN" : "en";
  }
}

function note(text, color = "2") {
  term.term.write(`\r\x1b[K\x1b[${color}m${text}\x1b[0m\r\n`);
}

function setupActions() {
  const dialog = document.getElementById("share-dialog");
  const link = document.getElementById("share-link");
  const status = document.getElementById("share-status");
  document.getElementById("share").addEventListener("click", async () => {
    if (!booted) return;
    status.textContent = "";
    link.value = "";
    dialog.showModal();
    try {
      link.value = await persist.shareLink();
      link.select();
    } catch (e) {
      status.textContent = String(e && e.message ? e.message : e);
    }
  });
  document.getElementById("share-copy").addEventListener("click", async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      status.textContent = T.copied;
    } catch (e) {
      status.textContent = T.copyFailed;
    }
  });
  document.getElementById("share-close").addEventListener("click", () => dialog.close());
  document.getElementById("reset").addEventListener("click", async () => {
    if (!booted || !window.confirm(T.resetConfirm)) return;
    persist.clear();
    if (go().busy()) go().interrupt();
    await go().reset();
    lessons.showList();
    note(T.resetDone);
    term.reprint();
    persist.schedule();
  });
  window.addEventListener("pagehide", () => persist.saveSoon());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") persist.saveSoon();
  });
  setInterval(() => booted && persist.schedule(0), 10000);
}

// Tabs: the terminal and the editor share the middle pane.
function setupTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
    }
    if (tab.id === "tab-terminal") {
      term.fitNow();
      term.focus();
    } else if (tab.id === "tab-trace") {
      if (booted) trace.refresh();
    } else if (editor) {
      editor.focus();
    }
  };
  for (const t of tabs) {
    t.addEventListener("click", () => select(t));
    t.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(t);
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const n = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
        n.focus();
        select(n);
        e.preventDefault();
      }
    });
  }
  return select;
}

const EDITOR_KEY = "kubeplay.editor";

let editorLoaded;
let selectTab;

// The editor (CodeMirror) is a chunk of its own, loaded once the engine
// runs, so that it does not slow the start.
function setupEditor() {
  if (!editorLoaded) editorLoaded = loadEditor();
  return editorLoaded;
}

async function loadEditor() {
  const { Editor } = await import("./editor.js");
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(EDITOR_KEY) || "null");
  } catch (e) {
    saved = null;
  }
  const fileInput = document.getElementById("filename");
  const applyBtn = document.getElementById("apply");
  const output = document.getElementById("apply-output");
  if (saved && typeof saved.name === "string") fileInput.value = saved.name.slice(0, 100);
  editor = new Editor(
    document.getElementById("editor"),
    {
      ready: () => booted,
      diagnose: (text) => go().diagnose(text),
    },
    { doc: saved && typeof saved.text === "string" ? saved.text : undefined, label: T.editor },
  );
  let saveTimer;
  let editing = null; // during kubectl edit: what the editor held before
  const save = () => {
    if (editing) return; // a kubectl edit's file is not the learner's draft
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      try {
        localStorage.setItem(EDITOR_KEY, JSON.stringify({ name: fileInput.value, text: editor.text() }));
      } catch (e) {
        /* storage full or disabled */
      }
    }, 500);
  };
  editor.onChange = save;
  fileInput.addEventListener("input", save);
  const apply = async () => {
    if (!booted || applyBtn.disabled) return;
    const name = fileInput.value.trim() || "manifest.yaml";
    const text = editor.text();
    applyBtn.disabled = true;
    output.classList.remove("failed");
    if (go().busy()) output.textContent = T.busy;
    try {
      await go().writeFile(name, text);
      const out = await kp.run(`kubectl apply -f ${name}`);
      output.textContent = out; // text, never markup
      const markers = await go().diagnose(text);
      editor.mark(markers);
      output.classList.toggle("failed", markers.length > 0 || /^(error|Error)|is invalid/m.test(out));
      persist.schedule();
    } catch (e) {
      output.textContent = String(e && e.message ? e.message : e);
      output.classList.add("failed");
    } finally {
      applyBtn.disabled = false;
    }
  };
  // kubectl edit: the terminal waits while the file is in the editor.
  const cancelBtn = document.getElementById("edit-cancel");
  const hint = applyBtn.parentElement.querySelector(".hint");
  const endEdit = (saved) => {
    if (!editing) return;
    const text = editor.text();
    editor.setText(editing.text);
    fileInput.value = editing.name;
    fileInput.disabled = false;
    applyBtn.textContent = T.apply;
    hint.textContent = T.applyHint;
    cancelBtn.hidden = true;
    editing = null;
    if (saved !== undefined) go().editDone(saved, saved ? text : "");
    selectTab(document.getElementById("tab-terminal"));
  };
  globalThis.__kubeplayEdit = (path, text) => {
    if (!path) {
      endEdit(undefined); // Ctrl-C in the terminal
      return;
    }
    if (!editing) editing = { text: editor.text(), name: fileInput.value };
    editor.setText(String(text));
    fileInput.value = String(path);
    fileInput.disabled = true;
    applyBtn.textContent = T.editSave;
    hint.textContent = T.editHint;
    cancelBtn.hidden = false;
    output.textContent = "";
    selectTab(document.getElementById("tab-editor"));
  };
  cancelBtn.addEventListener("click", () => endEdit(false));
  const applyOrSave = () => (editing ? endEdit(true) : apply());
  applyBtn.addEventListener("click", applyOrSave);
  editor.onApply = applyOrSave;
}

// The lesson pane: open on wide screens (or as the learner left it), and
// always while a lesson is being followed.
const LESSONS_KEY = "kubeplay.lessonsOpen";

function showLessons(open) {
  const pane = document.getElementById("lesson-pane");
  pane.hidden = !open;
  document.body.classList.toggle("lessons-open", open);
  document.getElementById("toggle-lessons").setAttribute("aria-expanded", open ? "true" : "false");
  term.fitNow();
}

async function setupLessons() {
  const want = params.get("lesson");
  let stored = null;
  try {
    stored = embed ? null : localStorage.getItem(LESSONS_KEY);
  } catch (e) {
    stored = null;
  }
  showLessons(!!want || (stored === null ? !embed && window.innerWidth >= 1200 : stored === "1"));
  document.getElementById("toggle-lessons").addEventListener("click", () => {
    const now = document.getElementById("lesson-pane").hidden;
    showLessons(now);
    try {
      localStorage.setItem(LESSONS_KEY, now ? "1" : "0");
    } catch (e) {
      /* fine */
    }
  });
  if (want) {
    const step = Math.max(1, parseInt(params.get("step") || "1", 10) || 1) - 1;
    await lessons.start(want, step);
  } else {
    await lessons.restore();
  }
  if (lessons.lesson) showLessons(true);
}

function startLessons() {
  return setupLessons().catch((e) => note(`lessons: ${e && e.message ? e.message : e}`, "31"));
}

// runSetup runs the lines of ?run=… (a documentation page's starting
// point: commands typed for the reader before the page is ready).
async function runSetup() {
  const run = params.get("run");
  if (!run) return;
  if (run.length > 4096) {
    note(T.setupTooLong, "33");
    return;
  }
  for (const line of run.split("\n")) {
    if (line.trim()) await kp.run(line);
  }
}

// setupEmbed: an iframe's page. Its parent may drive it with
// postMessage({kubeplay: "run", id, line}) and postMessage({kubeplay:
// "advance", id, seconds}); answers come back as {kubeplay: "result", id,
// output} (or error). "ready" is posted to the parent once the engine runs.
function setupEmbed() {
  document.body.classList.add("embed");
  const open = document.getElementById("open-full");
  open.hidden = false;
  open.addEventListener("click", async (e) => {
    e.preventDefault();
    const q = new URLSearchParams(location.search);
    q.delete("embed");
    q.delete("run");
    let url = location.pathname + (q.toString() ? "?" + q.toString() : "");
    try {
      url = (await persist.shareLink()).replace(/^[^#]*/, location.origin + url);
    } catch (err) {
      /* open the page without the state */
    }
    window.open(url, "_blank", "noopener");
  });
  window.addEventListener("message", async (e) => {
    const m = e.data;
    if (!m || typeof m !== "object" || typeof m.kubeplay !== "string" || !e.source) return;
    const reply = (body) => e.source.postMessage({ kubeplay: "result", id: m.id, ...body }, e.origin === "null" ? "*" : e.origin);
    try {
      await kp.ready;
      if (m.kubeplay === "run") reply({ output: await kp.run(String(m.line ?? "")) });
      else if (m.kubeplay === "advance") {
        await kp.advance(Number(m.seconds));
        reply({ output: "" });
      }
    } catch (err) {
      reply({ error: String(err && err.message ? err.message : err) });
    }
  });
  kp.ready.then(() => {
    if (window.parent !== window) window.parent.postMessage({ kubeplay: "ready" }, "*");
  });
}

function main() {
  setTexts();
  const el = document.getElementById("terminal");
  term = new Console(
    el,
    {
      exec: (line, onOutput) => go().exec(line, true, onOutput),
      interrupt: () => go().interrupt(),
      complete: (line) => go().complete(line),
    },
    { theme: termTheme() },
  );
  dark.addEventListener("change", () => term.setTheme(termTheme()));
  selectTab = setupTabs();
  // kubectl edit may ask for the editor before it has loaded.
  globalThis.__kubeplayEdit = (path, text) =>
    setupEditor().then(() => globalThis.__kubeplayEdit(path, text));
  persist = new Persistence(
    {
      savePacked: () => go().savePacked(),
      load: (json) => go().load(json),
    },
    { storage: !embed },
  );
  if (embed) setupEmbed();
  const details = new Details(T, (kind, ns, name) => go().describe(kind, ns, name));
  trace = new TracePanel(T, () => go().trace());
  lessons = new LessonPanel(T, lang, go, term);
  lessons.onChange = () => persist.save();
  term.onIdle = () => {
    if (lessons.lesson) lessons.check();
    // Not at once: a save holds the engine's thread for 50–150 ms with a
    // few hundred pods, which the next command would wait for.
    persist.schedule();
    if (!document.getElementById("details").hidden) details.refresh();
    if (!document.getElementById("panel-trace").hidden) trace.refresh();
  };
  setupActions();
  term.term.write(`\x1b[2m${T.loading}\x1b[0m`);
  boot()
    .then(() => persist.restore())
    .then(
    (restored) => {
      mark("restored");
      term.term.write("\r\x1b[K");
      term.term.write(T.greeting);
      if (restored.source === "saved") note(T.restoredSaved);
      if (restored.source === "link") note(T.restoredLink);
      if (restored.error) note(`${T.restoreFailed} ${restored.error}`, "33");
      term.start("");
      booted = true;
      resolveEngine();
      // The lesson list is read after the page is ready (reading the
      // lessons is the engine's work too), unless the page opens a lesson
      // (?lesson=…), whose cluster must be there first.
      if (params.get("lesson")) return startLessons();
      return null;
    })
    .then(() => {
      return runSetup().catch((e) => note(String(e && e.message ? e.message : e), "31"));
    })
    .then(
    () => {
      setupEditor().catch((e) => note(`editor: ${e && e.message ? e.message : e}`, "31"));
      document.body.classList.add("ready");
      mark("ready");
      kp.readyAt = Math.round(performance.now());
      resolveReady();
      term.focus();
      if (!params.get("lesson")) setTimeout(startLessons, 0);
      // The first frame with the prompt and the picture on screen.
      requestAnimationFrame(() => setTimeout(() => mark("painted"), 0));
    },
    (e) => {
      term.term.write(`\r\n\x1b[31m${T.failed} ${String(e && e.message ? e.message : e)}\x1b[0m\r\n`);
      rejectReady(e);
    },
  );
}

main();
