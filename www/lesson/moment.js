// Exact moments (issue 28): a flock's snapshot (`flock.snapshot()`, every bit the next step
// depends on) as text for an attribute or a link, and back. The text is the snapshot
// compressed with the browser's CompressionStream ('deflate-raw'), then base64url (RFC 4648
// §5, no padding): safe in an attribute, a query and a fragment.
//
//   <boids-flock state="…"></boids-flock>           the text itself
//   <boids-flock state="lessons/strike.boids">       a snapshot file (raw bytes, or deflated)
//   index.html#state=…  embed.html#state=…           the same text in a link's fragment
//
// The fragment, not the query: it never reaches a server's logs, and a 1,500-boid moment is
// ~50 KB of text, which a query may not carry through every server. A snapshot that the
// simulation refuses (another version, truncated, altered) is a RangeError saying why.

/** Links carry moments up to this many characters (1,500 boids take ~50 K); larger: a file. */
export const LINK_MAX = 200_000;

/** Bytes as base64url, no padding. */
export function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (or plain base64) text as bytes; a RangeError for anything else. */
export function fromBase64url(text) {
  const clean = String(text).trim().replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw new RangeError('state: not a moment (expected base64url text, as "Link to this moment" writes)');
  }
  const binary = atob(clean + '='.repeat((4 - (clean.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function through(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** A snapshot as the text of a `state` attribute or a `#state=` link. */
export async function encodeMoment(snapshot) {
  return base64url(await through(snapshot, new CompressionStream('deflate-raw')));
}

/** Snapshot files and decompressed texts start with the snapshot's magic, "BOID". */
const isSnapshot = (bytes) => bytes.length >= 4 && String.fromCharCode(...bytes.subarray(0, 4)) === 'BOID';

/** Deflated bytes (or a snapshot as it is) as the snapshot. */
async function inflate(bytes) {
  if (isSnapshot(bytes)) return bytes;
  try {
    return await through(bytes, new DecompressionStream('deflate-raw'));
  } catch {
    throw new RangeError('state: not a moment (the text does not unpack: cut short or altered?)');
  }
}

/** Whether a `state` value names a file rather than holding the text itself. */
const isFileName = (value) => /^(https?:|\.{0,2}\/)/.test(value) || /\.boids$/i.test(value);

/**
 * The snapshot a `state` value stands for: the text, or the file it names (fetched relative
 * to the document). Rejects with a RangeError (or the fetch's error) saying why.
 */
export async function loadMoment(value) {
  const text = String(value).trim();
  if (!text) throw new RangeError('state: empty');
  if (isFileName(text)) {
    const response = await fetch(new URL(text, document.baseURI));
    if (!response.ok) throw new RangeError(`state: ${text} answered HTTP ${response.status}`);
    return inflate(new Uint8Array(await response.arrayBuffer()));
  }
  return inflate(fromBase64url(text));
}
