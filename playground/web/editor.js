// The YAML editor: CodeMirror 6 with YAML highlighting, markers at the
// line and column the engine reports (checked as you type and on Apply),
// and Apply, which saves the text as a file of the terminal and runs
// `kubectl apply -f FILE` there.

import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from "@codemirror/view";
import { EditorState, Compartment } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { syntaxHighlighting, HighlightStyle, indentUnit, bracketMatching } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { yaml } from "@codemirror/lang-yaml";
import { linter, lintGutter, setDiagnostics, forceLinting } from "@codemirror/lint";

export const SAMPLE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
spec:
  replicas: 3
  selector:
    matchLabels:
      app: hello
  template:
    metadata:
      labels:
        app: hello
    spec:
      containers:
      - name: hello
        image: nginx:1.27
        ports:
        - containerPort: 80
`;

// toDiagnostics turns the engine's markers (1-based line and column;
// column 0 means the whole line) into CodeMirror diagnostics.
export function toDiagnostics(doc, markers) {
  const out = [];
  for (const m of markers || []) {
    const lineNo = Math.min(Math.max(1, m.line | 0), doc.lines);
    const line = doc.line(lineNo);
    let from = line.from, to = line.to;
    if (m.column > 0) {
      from = Math.min(line.from + m.column - 1, line.to);
      // Underline the word at the column (a key, a value).
      const rest = doc.sliceString(from, line.to);
      const w = /^[^\s:]+/.exec(rest);
      to = w ? from + w[0].length : line.to;
    }
    if (to <= from) to = Math.min(from + 1, doc.length);
    out.push({ from, to, severity: "error", message: String(m.message), source: "kubeplay" });
  }
  return out;
}

// Colours come from CSS variables, so light and dark themes both read well.
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--hl-key)" },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: "var(--hl-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--hl-number)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.meta, tags.punctuation, tags.separator, tags.typeName, tags.labelName], color: "var(--muted)" },
]);

const chrome = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--panel)" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: "var(--selection)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--line)" },
});

export class Editor {
  constructor(el, engine, opts = {}) {
    this.engine = engine; // {diagnose(text) → Promise<markers>, apply(name, text) → Promise<output>}
    this.theme = new Compartment();
    const check = linter(async (view) => {
      if (!this.engine.ready()) return [];
      try {
        return toDiagnostics(view.state.doc, await this.engine.diagnose(view.state.doc.toString()));
      } catch (e) {
        return [];
      }
    }, { delay: 400 });
    this.view = new EditorView({
      parent: el,
      state: EditorState.create({
        doc: opts.doc ?? SAMPLE,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          bracketMatching(),
          indentUnit.of("  "),
          EditorState.tabSize.of(2),
          yaml(),
          syntaxHighlighting(highlight),
          chrome,
          EditorView.lineWrapping,
          lintGutter(),
          check,
          keymap.of([
            { key: "Mod-Enter", run: () => (this.onApply && this.onApply(), true) },
            { key: "Mod-s", run: () => (this.onApply && this.onApply(), true) },
            indentWithTab,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.contentAttributes.of({ "aria-label": opts.label || "YAML editor" }),
          this.theme.of([]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && this.onChange) this.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
  }

  text() {
    return this.view.state.doc.toString();
  }

  setText(text) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
  }

  // mark shows the engine's markers now (after an Apply).
  mark(markers) {
    this.view.dispatch(setDiagnostics(this.view.state, toDiagnostics(this.view.state.doc, markers)));
  }

  relint() {
    forceLinting(this.view);
  }

  focus() {
    this.view.focus();
  }
}
