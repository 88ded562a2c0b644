// Keeping the cluster: the page state (the engine's snapshot and the
// terminal's files) is saved in localStorage, gzipped, after each command
// and every few seconds, and restored on reload. A share link carries the
// same state, gzipped and base64url-encoded, in the URL fragment (#s=…),
// which never reaches a server. Either is checked by the engine like any
// input before it replaces anything.

const KEY = "kubeplay.state";
export const MAX_LINK = 1500000; // characters of the fragment

function toB64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("not base64url");
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const r = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await r.arrayBuffer());
}

// pack gzips text (a string, or its UTF-8 bytes) into base64url.
export async function pack(text) {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  return toB64url(await pipe(bytes, new CompressionStream("gzip")));
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
    this.engine = engine; // {save() → Promise<Uint8Array> (UTF-8 JSON), saveNow() → string|null, load(json) → Promise}
    this.timer = null;
    this.saving = false;
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
    this.timer = setTimeout(() => this.save(), ms);
  }

  async save() {
    if (!this.enabled || this.saving) return;
    this.saving = true;
    try {
      const z = await pack(await this.engine.save());
      localStorage.setItem(KEY, "z:" + z);
    } catch (e) {
      /* storage full or disabled: the page works on without it */
    } finally {
      this.saving = false;
    }
  }

  // saveSync is for a page that is going away: no waiting allowed.
  saveSync() {
    if (!this.enabled) return;
    try {
      const json = this.engine.saveNow();
      if (json) localStorage.setItem(KEY, "j:" + json);
    } catch (e) {
      /* nothing to do */
    }
  }

  clear() {
    clearTimeout(this.timer);
    if (!this.enabled) return;
    try {
      localStorage.removeItem(KEY);
    } catch (e) {
      /* nothing to do */
    }
  }

  async shareLink() {
    const z = await pack(await this.engine.save());
    if (z.length > MAX_LINK) throw new Error("the cluster is too large for a link");
    return location.origin + location.pathname + location.search + "#s=" + z;
  }
}
