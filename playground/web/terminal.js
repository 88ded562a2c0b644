// The learner's terminal: xterm.js with a small line editor (cursor
// movement, history, Tab completion, Ctrl-C, heredocs and continuation
// lines) in front of the engine's shell. Output streams into the terminal
// as the command writes it.

import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";

const PROMPT = "\x1b[1;32m$\x1b[0m ";
const PROMPT_LEN = 2;
const CONT = "> ";
const HISTORY_KEY = "kubeplay.history";
const HISTORY_MAX = 500;

// heredocWords returns the terminators a line's heredocs wait for.
function heredocWords(line) {
  const out = [];
  const re = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/g;
  let m;
  while ((m = re.exec(line)) !== null) out.push({ word: m[3], strip: m[1] === "-" });
  return out;
}

function commonPrefix(items) {
  if (items.length === 0) return "";
  let p = items[0];
  for (const s of items) {
    let i = 0;
    while (i < p.length && i < s.length && p[i] === s[i]) i++;
    p = p.slice(0, i);
  }
  return p;
}

// ENTER_HOLD_MS is how long the line break after a typed line waits for
// the command's answer before it is shown alone.
const ENTER_HOLD_MS = 50;

export class Console {
  constructor(el, engine, opts = {}) {
    this.engine = engine; // {exec(line, onOutput) → Promise<code>, interrupt(), complete(line) → Promise}
    this.term = new Terminal({
      convertEol: true,
      // A steady cursor (xterm's default): the blinking one restyled the
      // page on every frame, idle or not (61 style recalculations a second
      // against 18), and kubeplay.run, whose commands are echoed here,
      // took about twice as long to answer with it.
      cursorBlink: false,
      fontFamily: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 14,
      scrollback: 5000,
      theme: opts.theme,
      screenReaderMode: false,
    });
    this.fit = new FitAddon();
    this.term.loadAddon(this.fit);
    this.term.open(el);
    this.fitNow();
    new ResizeObserver(() => this.fitNow()).observe(el);
    this.line = "";
    this.cursor = 0;
    this.script = []; // lines of a multi-line command gathered so far
    this.waitFor = []; // heredoc terminators still expected
    this.running = false;
    this.queue = ""; // input typed or pasted while a command runs
    this.held = ""; // a running command's output not yet handed to xterm
    this.holdTimer = 0;
    this.history = this.loadHistory();
    this.hpos = this.history.length;
    this.lastTab = "";
    this.ready = false;
    this.term.onData((d) => this.onData(d));
  }

  fitNow() {
    try {
      this.fit.fit();
    } catch (e) {
      /* not laid out yet */
    }
  }

  setTheme(theme) {
    this.term.options.theme = theme;
  }

  loadHistory() {
    try {
      const h = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
      return Array.isArray(h) ? h.filter((x) => typeof x === "string").slice(-HISTORY_MAX) : [];
    } catch (e) {
      return [];
    }
  }

  saveHistory() {
    try {
      localStorage.setItem(HISTORY_KEY, JSON.stringify(this.history.slice(-HISTORY_MAX)));
    } catch (e) {
      /* storage full or disabled */
    }
  }

  // start shows the greeting and the first prompt.
  start(greeting) {
    this.ready = true;
    if (greeting) this.term.write(greeting);
    this.prompt();
    this.pump();
  }

  // prompt writes the prompt after any output still held; done runs once
  // xterm has parsed both.
  prompt(done) {
    this.held += this.script.length ? CONT : PROMPT;
    this.drawnCursor = 0;
    this.release(done);
  }

  // hold keeps a running command's output until the command ends or the
  // current task does, so that a quick command's output and next prompt
  // go to xterm as one write, in the task that brings the engine's answer.
  hold(text, ms = 0) {
    this.held += text;
    if (!this.holdTimer) this.holdTimer = setTimeout(() => this.release(), ms);
  }

  // release hands the held output to xterm; done runs once xterm has
  // parsed it.
  release(done) {
    clearTimeout(this.holdTimer);
    this.holdTimer = 0;
    const text = this.held;
    this.held = "";
    if (text || done) this.term.write(text, done);
  }

  promptLen() {
    return this.script.length ? CONT.length : PROMPT_LEN;
  }

  // writeOutput shows text from outside the terminal (window.kubeplay.run).
  echo(line, output) {
    if (this.running) {
      this.hold(output);
      return;
    }
    this.term.write("\r\x1b[J" + PROMPT + line + "\r\n" + output);
    if (output && !output.endsWith("\n")) this.term.write("\r\n");
    this.reprint();
  }

  onData(data) {
    if (!this.ready) return;
    if (this.running) {
      const i = data.indexOf("\x03");
      if (i >= 0) {
        this.hold("^C");
        this.sawCtrlC = true;
        this.queue = "";
        this.engine.interrupt();
        return;
      }
      this.queue += data;
      return;
    }
    this.queue += data;
    this.pump();
  }

  // pump handles queued input until a command starts.
  pump() {
    while (this.queue.length && !this.running) {
      const q = this.queue;
      let n = 1;
      const c = q[0];
      if (c === "\x1b") {
        const m = /^\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z]|.)?/.exec(q);
        n = m[0].length;
        this.key(m[0]);
      } else if (c === "\r" || c === "\n") {
        if (c === "\r" && q[1] === "\n") n = 2;
        this.enter();
      } else {
        this.key(c);
      }
      this.queue = this.queue.slice(n);
    }
  }

  key(k) {
    switch (k) {
      case "\x7f":
      case "\b":
        if (this.cursor > 0) {
          this.line = this.line.slice(0, this.cursor - 1) + this.line.slice(this.cursor);
          this.cursor--;
          this.redraw();
        }
        return;
      case "\x1b[3~": // Delete
      case "\x04": // Ctrl-D deletes under the cursor (there is no logout)
        if (this.cursor < this.line.length) {
          this.line = this.line.slice(0, this.cursor) + this.line.slice(this.cursor + 1);
          this.redraw();
        }
        return;
      case "\x1b[D":
      case "\x02":
        if (this.cursor > 0) {
          this.cursor--;
          this.redraw();
        }
        return;
      case "\x1b[C":
      case "\x06":
        if (this.cursor < this.line.length) {
          this.cursor++;
          this.redraw();
        }
        return;
      case "\x1b[H":
      case "\x1bOH":
      case "\x1b[1~":
      case "\x01":
        this.cursor = 0;
        this.redraw();
        return;
      case "\x1b[F":
      case "\x1bOF":
      case "\x1b[4~":
      case "\x05":
        this.cursor = this.line.length;
        this.redraw();
        return;
      case "\x1b[A":
      case "\x10":
        if (this.hpos > 0) {
          if (this.hpos === this.history.length) this.draft = this.line;
          this.hpos--;
          this.setLine(this.history[this.hpos]);
        }
        return;
      case "\x1b[B":
      case "\x0e":
        if (this.hpos < this.history.length) {
          this.hpos++;
          this.setLine(this.hpos === this.history.length ? this.draft || "" : this.history[this.hpos]);
        }
        return;
      case "\x03": // Ctrl-C at the prompt: drop the line
        this.term.write("^C\r\n");
        this.line = "";
        this.cursor = 0;
        this.script = [];
        this.waitFor = [];
        this.hpos = this.history.length;
        this.prompt();
        return;
      case "\x0c": // Ctrl-L
        this.term.clear();
        this.term.write("\x1b[2J\x1b[H");
        this.reprint();
        return;
      case "\x15": // Ctrl-U
        this.line = this.line.slice(this.cursor);
        this.cursor = 0;
        this.redraw();
        return;
      case "\x0b": // Ctrl-K
        this.line = this.line.slice(0, this.cursor);
        this.redraw();
        return;
      case "\x17": {
        // Ctrl-W
        let i = this.cursor;
        while (i > 0 && this.line[i - 1] === " ") i--;
        while (i > 0 && this.line[i - 1] !== " ") i--;
        this.line = this.line.slice(0, i) + this.line.slice(this.cursor);
        this.cursor = i;
        this.redraw();
        return;
      }
      case "\t":
        this.complete();
        return;
    }
    if (k.length === 1 && k >= " ") {
      this.insert(k);
    } else if (k.length > 1 && !k.startsWith("\x1b")) {
      this.insert(k);
    }
  }

  insert(s) {
    this.line = this.line.slice(0, this.cursor) + s + this.line.slice(this.cursor);
    this.cursor += s.length;
    if (this.cursor === this.line.length && this.drawnCursor === this.cursor - s.length) {
      this.term.write(s);
      this.drawnCursor = this.cursor;
    } else {
      this.redraw();
    }
  }

  setLine(s) {
    this.line = s;
    this.cursor = s.length;
    this.redraw();
  }

  // redraw rewrites the prompt line (wrapped over several rows if long)
  // and puts the cursor where it belongs.
  redraw() {
    const cols = this.term.cols || 80;
    const pl = this.promptLen();
    const prevRow = Math.floor((pl + Math.min(this.drawnCursor || 0, this.line.length + 1000)) / cols);
    let s = prevRow > 0 ? `\x1b[${prevRow}A` : "";
    s += "\r\x1b[J" + (this.script.length ? CONT : PROMPT) + this.line;
    const end = pl + this.line.length;
    if (end > 0 && end % cols === 0) s += " \r\x1b[K"; // leave the pending wrap
    const at = pl + this.cursor;
    const up = Math.floor(end / cols) - Math.floor(at / cols);
    if (up > 0) s += `\x1b[${up}A`;
    s += "\r";
    if (at % cols > 0) s += `\x1b[${at % cols}C`;
    this.term.write(s);
    this.drawnCursor = this.cursor;
  }

  // reprint writes the prompt and line afresh at the start of a row.
  reprint() {
    this.term.write("\r" + (this.script.length ? CONT : PROMPT) + this.line);
    this.drawnCursor = this.line.length;
    this.redraw();
  }

  async complete() {
    const before = this.line.slice(0, this.cursor);
    let res;
    try {
      res = await this.engine.complete(before);
    } catch (e) {
      return;
    }
    // The learner may have typed on while the engine answered.
    if (this.line.slice(0, this.cursor) !== before) return;
    if (!res || !res.items || res.items.length === 0) return;
    const word = before.slice(res.start);
    const items = Array.from(res.items);
    if (items.length === 1) {
      const add = items[0].slice(word.length) + (items[0].endsWith("/") ? "" : " ");
      this.insert(add);
      return;
    }
    const p = commonPrefix(items);
    if (p.length > word.length) {
      this.insert(p.slice(word.length));
      this.lastTab = "";
      return;
    }
    if (this.lastTab === before) {
      // Second Tab: list the candidates below the line.
      const width = Math.max(...items.map((s) => s.length)) + 2;
      const per = Math.max(1, Math.floor((this.term.cols || 80) / width));
      let out = "\r\n";
      items.slice(0, 200).forEach((s, i) => {
        out += s.padEnd(width);
        if ((i + 1) % per === 0) out += "\r\n";
      });
      if (items.length % per !== 0) out += "\r\n";
      this.term.write(out);
      this.reprint();
    }
    this.lastTab = before;
  }

  enter() {
    const line = this.line;
    // The line break waits for a quick command's answer (the engine's
    // worker gives one in a few milliseconds): a frame drawn in between,
    // for the line break alone, would make the answer wait for it.
    this.hold("\r\n", ENTER_HOLD_MS);
    this.line = "";
    this.cursor = 0;
    this.drawnCursor = 0;
    if (this.waitFor.length) {
      this.script.push(line);
      const w = this.waitFor[0];
      if ((w.strip ? line.replace(/^\t+/, "") : line) === w.word) this.waitFor.shift();
      if (this.waitFor.length) {
        this.prompt();
        return;
      }
    } else {
      if (line.endsWith("\\") && !line.endsWith("\\\\")) {
        this.script.push(line);
        this.prompt();
        return;
      }
      this.script.push(line);
      this.waitFor = heredocWords(line);
      if (this.waitFor.length) {
        this.prompt();
        return;
      }
    }
    const script = this.script.join("\n");
    this.script = [];
    this.waitFor = [];
    this.run(script);
  }

  async run(script) {
    if (script.trim() === "") {
      this.prompt();
      return;
    }
    const first = script.split("\n")[0];
    if (this.history[this.history.length - 1] !== script) {
      this.history.push(script.includes("\n") ? first : script);
      this.saveHistory();
    }
    this.hpos = this.history.length;
    this.draft = "";
    this.running = true;
    this.sawCtrlC = false;
    const started = performance.now();
    let last = "\n";
    try {
      await this.engine.exec(script, (text) => {
        if (text) last = text;
        this.hold(text);
      });
    } catch (e) {
      this.hold(`\x1b[31mkubeplay: ${String(e && e.message ? e.message : e)}\x1b[0m\r\n`);
      last = "\n";
    }
    if (!last.endsWith("\n") || this.sawCtrlC) this.hold("\r\n");
    this.sawCtrlC = false;
    this.running = false;
    // The answer comes in a task of the engine's worker, and xterm parses
    // at once only the first write after a key press (any other from a
    // timer, after whatever frame the browser draws first): the answer to
    // a typed command is treated as such. (An internal of xterm's, pinned
    // by the lock file; without it the write just waits for the timer.)
    this.term._core?._writeBuffer?.handleUserInput?.();
    // How long the command took to answer, until xterm has taken in its
    // output and the prompt (the page's profiler and the browser suite
    // read these as "kp:command" measures).
    this.prompt(() => performance.measure("kp:command", { start: started, end: performance.now(), detail: first }));
    if (this.onIdle) this.onIdle();
    this.pump();
  }

  // type enters a command as if typed (a lesson's Run button); several
  // lines (a heredoc) go in one after another.
  type(cmd) {
    this.queue += String(cmd).replace(/\r?\n/g, "\r") + "\r";
    this.pump();
    this.focus();
  }

  // note writes a line above the prompt.
  note(text, color = "2") {
    if (this.running) {
      this.hold(`\r\n\x1b[${color}m${text}\x1b[0m\r\n`);
      return;
    }
    this.term.write(`\r\x1b[J\x1b[${color}m${text}\x1b[0m\r\n`);
    this.reprint();
  }

  focus() {
    this.term.focus();
  }
}
