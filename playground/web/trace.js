// The trace panel: every write the API server committed since the last
// command started, with the component that made it (kubectl, the
// deployment controller, the scheduler, a kubelet …) and what changed.
// Rendered as text only.

function cell(tag, text, cls) {
  const e = document.createElement(tag);
  e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export class TracePanel {
  constructor(T, load) {
    this.T = T;
    this.load = load; // () → Promise<JSON string>
    this.body = document.getElementById("trace-body");
    this.cmd = document.getElementById("trace-command");
    this.noise = document.getElementById("trace-noise");
    this.noise.addEventListener("change", () => this.render());
    this.data = null;
  }

  async refresh() {
    try {
      this.data = JSON.parse(await this.load());
    } catch (e) {
      return;
    }
    this.render();
  }

  render() {
    const T = this.T, d = this.data;
    if (!d) return;
    this.cmd.textContent = d.command ? `$ ${d.command.split("\n")[0]}` : T.traceNone;
    const rows = d.rows.filter((r) => this.noise.checked || !r.noise);
    this.body.replaceChildren();
    if (!rows.length) {
      this.body.append(cell("p", d.command ? T.traceEmpty : T.traceNone, "muted"));
      return;
    }
    const table = document.createElement("table");
    const head = document.createElement("tr");
    for (const h of [T.traceAt, T.traceWho, T.traceWhat, T.traceObject, T.traceChange]) head.append(cell("th", h));
    const thead = document.createElement("thead");
    thead.append(head);
    table.append(thead);
    const tb = document.createElement("tbody");
    for (const r of rows) {
      const tr = document.createElement("tr");
      tr.className = "a-" + r.action;
      tr.append(cell("td", r.at, "at"));
      tr.append(cell("td", r.actor, "who"));
      tr.append(cell("td", r.count > 1 ? `${r.action} ×${r.count}` : r.action, "what"));
      const ns = r.namespace && r.namespace !== "default" ? r.namespace + "/" : "";
      tr.append(cell("td", `${r.kind} ${ns}${r.name}`, "obj"));
      tr.append(cell("td", r.change || "", "change"));
      tb.append(tr);
    }
    table.append(tb);
    this.body.append(table);
    if (d.dropped) this.body.append(cell("p", T.traceDropped.replace("%d", d.dropped), "muted"));
  }
}
