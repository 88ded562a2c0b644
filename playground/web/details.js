// The details of a pod or node clicked in the cluster picture: the
// scheduler's verdict per node (for a pod), the events, the YAML. Every
// value is set as text; nothing from the cluster is parsed as markup.

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = String(text);
  return e;
}

function table(headers, rows) {
  const t = el("table");
  const tr = el("tr");
  for (const h of headers) tr.append(el("th", { scope: "col" }, h));
  const thead = el("thead");
  thead.append(tr);
  t.append(thead);
  const tb = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    for (const c of r) {
      if (c instanceof Node) {
        const td = el("td");
        td.append(c);
        row.append(td);
      } else row.append(el("td", {}, c));
    }
    tb.append(row);
  }
  t.append(tb);
  return t;
}

export class Details {
  constructor(T, describe) {
    this.T = T;
    this.describe = describe; // (kind, ns, name) → Promise<JSON string>
    this.panel = document.getElementById("details");
    this.title = document.getElementById("details-title");
    this.body = document.getElementById("details-body");
    this.picture = document.getElementById("picture");
    this.current = null;
    document.getElementById("details-close").addEventListener("click", () => this.close());
    const pick = (target) => {
      const pod = target.closest && target.closest("g.pod");
      if (pod) return { kind: "Pod", key: pod.dataset.pod };
      const box = target.closest && target.closest("g.box[data-node]");
      if (box) return { kind: "Node", key: box.dataset.node };
      return null;
    };
    this.picture.addEventListener("click", (e) => {
      const p = pick(e.target);
      if (p) this.open(p.kind, p.key);
    });
    this.picture.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      const p = pick(e.target);
      if (p) {
        e.preventDefault();
        this.open(p.kind, p.key);
      }
    });
    // The picture is redrawn as the cluster changes: keep the selection.
    new MutationObserver(() => this.mark()).observe(this.picture, { childList: true });
  }

  mark() {
    for (const g of this.picture.querySelectorAll(".selected")) g.classList.remove("selected");
    if (!this.current) return;
    const { kind, key } = this.current;
    const sel = kind === "Pod" ? `g.pod[data-pod="${CSS.escape(key)}"]` : `g.box[data-node="${CSS.escape(key)}"]`;
    const g = this.picture.querySelector(sel);
    if (g) g.classList.add("selected");
  }

  close() {
    this.current = null;
    this.panel.hidden = true;
    this.mark();
  }

  async open(kind, key) {
    this.current = { kind, key };
    this.mark();
    await this.refresh();
    this.panel.hidden = false;
  }

  async refresh() {
    if (!this.current) return;
    const { kind, key } = this.current;
    let ns = "", name = key;
    if (kind === "Pod") [ns, name] = key.split("/", 2);
    let d;
    try {
      d = JSON.parse(await this.describe(kind, ns, name));
    } catch (e) {
      return;
    }
    const T = this.T;
    this.title.textContent = `${kind === "Pod" ? T.pod : T.node} ${kind === "Pod" && ns !== "default" ? ns + "/" : ""}${name}`;
    this.body.replaceChildren();
    if (!d.found) {
      this.body.append(el("p", { class: "muted" }, T.gone));
      return;
    }
    if (kind === "Pod") {
      this.body.append(el("h4", {}, T.scheduler));
      const dec = d.decision;
      if (dec) {
        const verdict = dec.node ? T.scheduledOn.replace("%s", dec.node) : `${dec.reason}: ${dec.message}`;
        this.body.append(el("p", { class: dec.node ? "ok-text" : "fail-text" }, `${verdict} (${dec.age})`));
        if (dec.dropped) {
          this.body.append(el("p", { class: "muted" }, T.verdictsDropped.replace("%d", String(dec.feasible)).replace("%d", String(dec.evaluated)).replace("%d", String(dec.allNodes))));
        }
        this.body.append(table([T.nodeCol, T.verdictCol, T.whyCol, T.scoreCol], (dec.nodes || []).map((n) => [
          n.name,
          n.verdict,
          n.verdict === "Rejected" ? `${n.plugin}: ${(n.reasons || []).join("; ")}` : (n.scores || []).join(", "),
          n.verdict === "Feasible" ? String(n.score) : "",
        ])));
      } else {
        const sched = (d.events || []).filter((e) => e.reason === "Scheduled" || e.reason === "FailedScheduling");
        this.body.append(el("p", { class: "muted" }, sched.length ? sched[sched.length - 1].message : T.noVerdict));
      }
    }
    this.body.append(el("h4", {}, T.events));
    if (d.events && d.events.length) {
      this.body.append(table([T.lastSeen, T.typeCol, T.reasonCol, T.fromCol, T.messageCol],
        d.events.map((e) => [e.lastSeen, e.type, e.reason, e.from, e.message])));
    } else {
      this.body.append(el("p", { class: "muted" }, T.noEvents));
    }
    const yaml = el("details");
    yaml.append(el("summary", {}, "YAML"));
    yaml.append(el("pre", {}, d.yaml));
    this.body.append(yaml);
  }
}
