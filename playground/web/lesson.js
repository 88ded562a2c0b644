// The lesson panel: the list of lessons, then one step at a time — its
// explanation, the commands to type (Run types one into the terminal), and
// the checks that say when the step is done. Lesson text is rendered by a
// tiny Markdown subset into DOM nodes (paragraphs, `code`, *em*, **strong**),
// never as HTML.

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// inline turns `code`, **strong** and *em* into nodes.
function inline(text) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*/g;
  let last = 0, m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) out.push(el("code", {}, m[1]));
    else if (m[2] !== undefined) out.push(el("strong", {}, m[2]));
    else out.push(el("em", {}, m[3]));
    last = re.lastIndex;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

export function renderText(text) {
  const frag = document.createDocumentFragment();
  for (const para of String(text || "").split(/\n\s*\n/)) {
    const t = para.trim();
    if (!t) continue;
    const lines = t.split("\n");
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      const ul = el("ul");
      for (const l of lines) {
        const li = el("li");
        li.append(...inline(l.replace(/^\s*[-*] /, "")));
        ul.append(li);
      }
      frag.append(ul);
      continue;
    }
    const p = el("p");
    p.append(...inline(lines.join(" ")));
    frag.append(p);
  }
  return frag;
}

export class LessonPanel {
  constructor(T, lang, go, term) {
    this.T = T;
    this.lang = lang;
    this.go = go; // () → __kubeplayGo
    this.term = term;
    this.root = document.getElementById("lesson-body");
    this.lesson = null; // the lesson's data
    this.step = 0;
    this.checks = null;
  }

  tr(text) {
    if (!text) return "";
    return (this.lang === "zh" ? text.zh : text.en) || text.en || "";
  }

  // restore shows the lesson the engine is in (after a reload), else the list.
  async restore() {
    let cur = null;
    try {
      cur = JSON.parse(await this.go().currentLesson());
    } catch (e) {
      cur = null;
    }
    if (cur && cur.name) {
      this.lesson = JSON.parse((await this.go().lesson(cur.name)) || "null");
      this.step = cur.step | 0;
      if (this.lesson) {
        this.render();
        this.check();
        return;
      }
    }
    this.showList();
  }

  async showList() {
    this.lesson = null;
    this.checks = null;
    const T = this.T;
    this.root.replaceChildren();
    this.root.append(el("p", { class: "lesson-intro" }, T.lessonsIntro));
    let list = [];
    try {
      list = JSON.parse(await this.go().lessons());
    } catch (e) {
      // The lessons' bundle did not load (lessons.bin, fetched beside the
      // engine): say why rather than list nothing.
      this.root.append(el("p", { class: "lesson-error" }, String(e && e.message ? e.message : e)));
      list = [];
    }
    const ul = el("ul", { class: "lesson-list" });
    for (const l of list) {
      const li = el("li");
      const b = el("button", { type: "button", class: "lesson-item", "data-lesson": l.name });
      b.append(el("span", { class: "lesson-title" }, this.tr(l.title)));
      b.append(el("span", { class: "lesson-summary" }, this.tr(l.summary)));
      b.append(el("span", { class: "lesson-steps" }, T.lessonSteps.replace("%d", l.steps)));
      b.addEventListener("click", () => this.start(l.name, 0));
      li.append(b);
      ul.append(li);
    }
    this.root.append(ul);
  }

  async start(name, step) {
    if (this.term.running) this.go().interrupt();
    this.root.replaceChildren(el("p", { class: "muted" }, this.T.lessonStarting));
    try {
      await this.go().startLesson(name, step);
    } catch (e) {
      this.root.replaceChildren(el("p", { class: "fail-text" }, String(e && e.message ? e.message : e)));
      return;
    }
    // The page saves the change first: the engine answers in turn.
    if (this.onChange) this.onChange();
    this.lesson = JSON.parse((await this.go().lesson(name)) || "null");
    this.step = step;
    this.term.note(this.T.lessonStarted.replace("%s", this.tr(this.lesson.title)));
    this.render();
    this.check();
  }

  async goto(step) {
    if (!this.lesson || step < 0 || step >= this.lesson.steps.length) return;
    await this.go().lessonStep(step);
    if (this.onChange) this.onChange();
    this.step = step;
    this.checks = null;
    this.render();
    this.check();
    this.root.scrollTop = 0;
  }

  async leave() {
    await this.go().leaveLesson();
    if (this.onChange) this.onChange();
    this.showList();
  }

  // check evaluates the step's checks (after each command).
  async check() {
    if (!this.lesson) return;
    const at = this.step;
    try {
      const res = JSON.parse(await this.go().checkLesson());
      if (this.lesson && this.step === at) {
        this.checks = res;
        this.renderChecks();
      }
    } catch (e) {
      /* no lesson any more */
    }
  }

  render() {
    const T = this.T, l = this.lesson, s = l.steps[this.step];
    this.root.replaceChildren();
    const head = el("div", { class: "lesson-head" });
    const back = el("button", { type: "button", class: "link" }, T.allLessons);
    back.addEventListener("click", () => this.leave());
    head.append(back);
    head.append(el("h3", {}, this.tr(l.title)));
    head.append(el("p", { class: "lesson-progress" }, T.stepOf.replace("%d", this.step + 1).replace("%d", l.steps.length)));
    this.root.append(head);
    this.root.append(el("h4", { class: "step-title" }, this.tr(s.title)));
    const text = el("div", { class: "step-text" });
    text.append(renderText(this.tr(s.text)));
    this.root.append(text);
    if (s.commands && s.commands.length) {
      this.root.append(el("h5", {}, T.commands));
      const ul = el("ul", { class: "commands" });
      s.commands.forEach((cmd) => {
        const li = el("li");
        li.append(el("code", {}, cmd));
        const run = el("button", { type: "button", class: "run", "aria-label": `${T.run}: ${cmd.split("\n")[0]}` }, T.run);
        run.addEventListener("click", () => this.term.type(cmd));
        li.append(run);
        ul.append(li);
      });
      this.root.append(ul);
    }
    if (s.checks && s.checks.length) {
      this.root.append(el("h5", {}, T.checks));
      this.checksEl = el("ul", { class: "checks", "aria-live": "polite" });
      this.root.append(this.checksEl);
      this.renderChecks();
    } else {
      this.checksEl = null;
    }
    if (s.hint && (s.hint.en || s.hint.zh)) {
      const d = el("details", { class: "hint" });
      d.append(el("summary", {}, T.hint));
      d.append(renderText(this.tr(s.hint)));
      this.root.append(d);
    }
    const nav = el("div", { class: "lesson-nav" });
    const prev = el("button", { type: "button" }, T.prev);
    prev.disabled = this.step === 0;
    prev.addEventListener("click", () => this.goto(this.step - 1));
    const next = el("button", { type: "button", class: "primary", id: "lesson-next" }, this.step === l.steps.length - 1 ? T.finish : T.next);
    next.addEventListener("click", () => (this.step === l.steps.length - 1 ? this.leave() : this.goto(this.step + 1)));
    nav.append(prev, next);
    this.root.append(nav);
  }

  renderChecks() {
    if (!this.checksEl || !this.lesson) return;
    const s = this.lesson.steps[this.step];
    this.checksEl.replaceChildren();
    s.checks.forEach((c, i) => {
      const r = this.checks && this.checks[i];
      const state = !r ? "unknown" : r.ok ? "ok" : "todo";
      const li = el("li", { class: `check ${state}` });
      li.append(el("span", { class: "mark", "aria-hidden": "true" }, state === "ok" ? "✓" : state === "todo" ? "○" : "·"));
      li.append(el("span", {}, this.tr(c.text)));
      li.append(el("span", { class: "sr-only" }, state === "ok" ? this.T.checkDone : this.T.checkTodo));
      this.checksEl.append(li);
    });
    const done = this.checks && this.checks.length && this.checks.every((r) => r.ok);
    const next = document.getElementById("lesson-next");
    if (next) next.classList.toggle("pulse", !!done);
  }
}
