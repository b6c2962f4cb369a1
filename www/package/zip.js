// A zip file written in the page, for the lesson packages a teacher downloads (SCORM, H5P):
// the studio makes them from the lesson it shows, with no server. A zip is a list of local
// headers each followed by its data, then a central directory that lists them again, then
// one end record (PKWARE's APPNOTE 6.3, the parts every reader knows: no zip64, no
// encryption, UTF-8 names). Data is deflated with the browser's own CompressionStream
// ('deflate-raw': Chromium 103, Firefox 113, Safari 16.4) where that makes it smaller, else
// stored. Up to 65,535 files and 4 GiB, far past a lesson (a few files, ~1 MB).

const encoder = new TextEncoder();

/** CRC-32 (the zip/PNG polynomial 0xEDB88320), table made once. */
let table = null;
function crc32(bytes) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function deflateRaw(bytes) {
  if (typeof CompressionStream !== 'function') return null;
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The DOS date and time fields of `date` (2-second steps; 1980 at the earliest). */
function dosTime(date) {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip of `files`, each { name, data }: `name` a relative path with `/` between folders,
 * `data` a string (written as UTF-8) or a Uint8Array. Resolves to the zip's bytes. Refuses,
 * with a TypeError or RangeError, a name that is empty, absolute, has `..` or `\`, or comes
 * twice, and data of another type: a package with such a name would unpack outside its folder
 * or not at all.
 */
export async function zipFiles(files, { date = new Date() } = {}) {
  if (!Array.isArray(files)) throw new TypeError(`zipFiles: files must be an array of { name, data }, got ${typeof files}`);
  if (files.length > 0xffff) throw new RangeError(`zipFiles: at most 65535 files, got ${files.length}`);
  const { time, day } = dosTime(date);
  const seen = new Set();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const file of files) {
    const name = file?.name;
    if (typeof name !== 'string' || name === '' || name.startsWith('/') || name.includes('\\') || name.split('/').includes('..')) {
      throw new RangeError(`zipFiles: ${JSON.stringify(name)} is not a relative path like "folder/file.txt"`);
    }
    if (seen.has(name)) throw new RangeError(`zipFiles: ${JSON.stringify(name)} comes twice`);
    seen.add(name);
    const data = typeof file.data === 'string' ? encoder.encode(file.data) : file.data;
    if (!(data instanceof Uint8Array)) throw new TypeError(`zipFiles: the data of ${JSON.stringify(name)} must be a string or a Uint8Array`);
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    // Small files gain nothing from deflate (its header alone is a few bytes).
    const deflated = data.length > 64 ? await deflateRaw(data) : null;
    const packed = deflated && deflated.length < data.length ? deflated : data;
    const method = packed === data ? 0 : 8;

    // The fields both headers carry, in the same order: from byte 4 of the local header, 6 of
    // the central one (which first says who made it).
    const shared = (view, at) => {
      view.setUint16(at, 20, true); // version needed: 2.0 (deflate)
      view.setUint16(at + 2, 0x0800, true); // bit 11: the name is UTF-8
      view.setUint16(at + 4, method, true);
      view.setUint16(at + 6, time, true);
      view.setUint16(at + 8, day, true);
      view.setUint32(at + 10, crc, true);
      view.setUint32(at + 14, packed.length, true);
      view.setUint32(at + 18, data.length, true);
      view.setUint16(at + 22, nameBytes.length, true); // then a 0-length extra field
    };
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); // local file header
    shared(local, 4);
    locals.push(new Uint8Array(local.buffer), nameBytes, packed);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true); // central directory header
    central.setUint16(4, 0x0314, true); // made by: Unix, 2.0 (so readers take the mode below)
    shared(central, 6);
    central.setUint32(38, (0o100644 << 16) >>> 0, true); // a regular file, rw-r--r--
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); // end of central directory
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  if (out.length > 0xffffffff) throw new RangeError('zipFiles: the zip would pass 4 GiB');
  return out;
}
