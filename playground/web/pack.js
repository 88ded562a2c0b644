// The page state's packing, shared by the page and the engine's worker
// (which packs what it saves, off the page's thread): gzip, then base64url.

function toB64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
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

