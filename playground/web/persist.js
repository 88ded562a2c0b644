// Keeping the cluster: the page state (the engine's snapshot and the
// terminal's files) is saved in localStorage, gzipped (by the engine's
// worker, pack.js), soon after each command, at each lesson step and every
// 10 s, and restored on reload. A share link carries the
// same state, gzipped and base64url-encoded, in the URL fragment (#s=…),
// which never reaches a server. Either is checked by the engine like any
// input before it replaces anything.

const KEY = "kubeplay.state";
export const MAX_LINK = 1500000; // characters of the fragment

function fromB64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("not base64url");
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// unpack reads at most limit bytes of unpacked text.
export async function unpack(b64, limit = 8 << 20) {
  const stream = new Blob([fromB64url(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  const reader = stream.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      reader.cancel();
      throw new Error("the state is too large");
    }
    chunks.push(value);
  }
  const all = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new TextDecoder().decode(all);
}

export class Persistence {
  constructor(engine, { storage = true } = {}) {
    this.engine = engine; // {savePacked() → Promise<string> (gzip, base64url), load(json) → Promise}
    this.timer = null;
    this.saving = false;
    this.again = false; // a save was asked for while one ran
    this.enabled = storage; // false: share links only, no localStorage
  }

  // restore loads the state of a share link, else the saved state. It
  // returns {source: "link"|"saved"|null, error}.
  async restore() {
    const m = /(?:^#|&)s=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (m) {
      try {
        if (m[1].length > MAX_LINK) throw new Error("the link is too long");
        await this.engine.load(await unpack(m[1]));
        // Keep the learner's own changes on reload from now on.
        history.replaceState(null, "", location.pathname + location.search);
        await this.save();
        return { source: "link" };
      } catch (e) {
        history.replaceState(null, "", location.pathname + location.search);
        return { source: null, error: `link: ${e && e.message ? e.message : e}` };
      }
    }
    if (!this.enabled) return { source: null };
    let saved = null;
    try {
      saved = localStorage.getItem(KEY);
    } catch (e) {
      return { source: null };
    }
    if (!saved) return { source: null };
    try {
      const json = saved.startsWith("z:") ? await unpack(saved.slice(2)) : saved.startsWith("j:") ? saved.slice(2) : null;
      if (json === null) throw new Error("unknown format");
      await this.engine.load(json);
      return { source: "saved" };
    } catch (e) {
      this.clear();
      return { source: null, error: `saved: ${e && e.message ? e.message : e}` };
    }
  }

  // schedule saves soon (several changes in a row save once).
  schedule(ms = 800) {
    if (!this.enabled) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.save();
    }, ms);
  }

  // pending says whether a save is asked for or under way (for tests,
  // which wait for it before a reload).
  pending() {
    return this.timer !== null || this.saving;
  }

  async save() {
    if (!this.enabled) return;
    if (this.saving) {
      this.again = true;
      return;
    }
    this.saving = true;
    try {
      do {
        this.again = false;
        localStorage.setItem(KEY, "z:" + (await this.engine.savePacked()));
      } while (this.again);
    } catch (e) {
      /* storage full or disabled: the page works on without it */
    } finally {
      this.saving = false;
    }
  }

  // saveSoon is for a page that is hidden or going away. The engine, in its
  // worker, cannot answer at once: a hidden page lives to get the answer,
  // an unloaded one may not (what changed since the last save, at most
  // 800 ms after a command or 10 s of the clock, is then lost).
  saveSoon() {
    clearTimeout(this.timer);
    this.timer = null;
    this.save();
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.enabled) return;
    try {
      localStorage.removeItem(KEY);
    } catch (e) {
      /* nothing to do */
    }
  }

  async shareLink() {
    const z = await this.engine.savePacked();
    if (z.length > MAX_LINK) throw new Error("the cluster is too large for a link");
    return location.origin + location.pathname + location.search + "#s=" + z;
  }
}
