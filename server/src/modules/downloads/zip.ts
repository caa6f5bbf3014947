// Zip archives of 云文档 folder downloads: safe, unique entry names, which entries are stored
// rather than deflated, and the writer (yazl: UTF-8 names, ZIP64 as soon as it is needed). The
// writer can leave the bytes of stored entries out of what it hands on (holes): the archive is
// then kept as its frame (headers, deflated entries, central directory) and the blobs it lies
// over, and put together again as it is sent (archive-source.ts).
import { createRequire } from 'node:module';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';
import { extensionOf } from '../folders/service';
import { portableName } from '../../lib/names';
import { ReadAhead } from '../storage/read-ahead';
import type { ContentSource } from '../storage/source';

/**
 * Stand-ins for the bytes of a stored entry whose CRC-32 is known (made when its blob was
 * uploaded): views of one zeroed buffer, each mapped to that CRC-32. They pass through yazl in
 * place of the file, which is then never read to build the archive, and are left out of the
 * frame as the entry's hole.
 */
const knownCrc = new WeakMap<Buffer, number>();
const ZEROS = Buffer.alloc(1 << 20);

/** `size` bytes that yazl takes as a content whose CRC-32 is `crc32` (its hole is sent instead). */
function standIn(size: number, crc32: number): Readable {
  function* views() {
    for (let at = 0; at < size; at += ZEROS.length) {
      const view = ZEROS.subarray(0, Math.min(ZEROS.length, size - at));
      knownCrc.set(view, crc32);
      yield view;
    }
  }
  return Readable.from(views(), { objectMode: false });
}

/**
 * yazl takes each entry's CRC-32 from buffer-crc32, a JavaScript loop over every byte (about
 * 300 MB/s here: three seconds of a gigabyte's archive); Node's zlib.crc32 gives the same
 * numbers at over 4 GB/s, and a stand-in gives its known CRC-32 without any work. yazl calls
 * `unsigned` on the module object it required, so that function of the very instance yazl uses
 * is replaced, once.
 */
function fastCrc32ForYazl(): void {
  const crc = createRequire(require.resolve('yazl'))('buffer-crc32') as { unsigned: (buf: Buffer, previous?: number | Buffer) => number };
  crc.unsigned = (buf, previous = 0) => knownCrc.get(buf) ?? zlib.crc32(buf, Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : previous);
}
fastCrc32ForYazl();

/** Already-compressed types: deflating them again costs time and gains nothing. */
export const STORED_EXTENSIONS = new Set([
  // archives
  'zip', 'rar', '7z', 'gz', 'tgz', 'bz2', 'tbz2', 'xz', 'txz', 'zst', 'lz', 'lzma', 'cab', 'jar', 'war', 'apk', 'ipa', 'dmg', 'iso',
  // images
  'jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'heif', 'avif', 'jp2',
  // audio and video
  'mp3', 'aac', 'm4a', 'ogg', 'oga', 'opus', 'flac', 'wma', 'mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm', 'wmv', 'flv', '3gp', 'rmvb',
  // office and document formats that are zip or compressed inside
  'docx', 'xlsx', 'pptx', 'docm', 'xlsm', 'pptm', 'odt', 'ods', 'odp', 'epub', 'pdf', 'ofd', 'wps', 'et', 'dps',
]);

/** Whether an entry of that name is deflated (method 8) rather than stored (method 0). */
export function shouldCompress(name: string): boolean {
  return !STORED_EXTENSIONS.has(extensionOf(name));
}

/**
 * One path segment that every unzip program extracts where it should, on every system: no
 * slash or backslash, no control, direction-changing or Windows-forbidden characters, no
 * reserved device name, not `.` or `..`, not blank (lib/names.ts).
 */
export function safeSegment(name: string): string {
  return portableName(name);
}

/** `名称（n）`, before the extension of a file. */
function numbered(name: string, isFolder: boolean, n: number): string {
  const ext = isFolder ? '' : extensionOf(name);
  if (!ext) return `${name}（${n}）`;
  const base = name.slice(0, name.length - ext.length - 1);
  return `${base}（${n}）${name.slice(base.length)}`;
}

/** Hands out names inside one folder of the archive, each once (compared case-insensitively). */
export class NameScope {
  private readonly taken = new Set<string>();

  claim(raw: string, isFolder: boolean): string {
    const name = safeSegment(raw);
    let candidate = name;
    for (let n = 1; this.taken.has(candidate.toLowerCase()); n++) candidate = numbered(name, isFolder, n);
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/**
 * One entry of an archive: a folder, or a file whose bytes come from `source` (null when empty).
 * `hole`: the stored object the same bytes can be read from when the archive is sent (a blob
 * the archive holds); a stored (not deflated) entry with one is left out of the frame, and is
 * not even read when its `crc32` is known.
 */
export type ZipEntry =
  | { kind: 'folder'; path: string; mtimeMs: number }
  | { kind: 'file'; path: string; mtimeMs: number; size: number; source: ContentSource | null; hole?: string; crc32?: number | null };

/** Where the bytes of a stored entry lie in the archive: `size` bytes at `at`, read from `key`. */
export interface ZipHole {
  at: number;
  size: number;
  key: string;
}

export interface ZipBuilt {
  /** the whole archive's size */
  size: number;
  /** the stored entries left out of the frame, in archive order (none without `holes`) */
  holes: ZipHole[];
}

export interface ZipBuild {
  /** resolves once the sink has the frame whole; rejects on any failure */
  done: Promise<ZipBuilt>;
  /** stops the build (the sink sees its stream fail, and keeps nothing) */
  abort(): void;
}

/** The head of a file deflated to judge whether the whole would shrink. */
const SAMPLE_BYTES = 64 * 1024;
/** Deflated to more than this share of its size, a sample says the file is stored as it is. */
const STORE_ABOVE = 0.9;
/** How many heads of files ahead of the one being added are read at once to decide their compression. */
export const DECIDE_AHEAD = 8;
/** How many entries ahead of the one being added a head may be read. */
const DECIDE_WINDOW = 1024;

/**
 * Whether a file of a compressible type is worth deflating: files up to SAMPLE_BYTES are; a
 * larger one when its first SAMPLE_BYTES shrink below STORE_ABOVE at zlib's fastest level (a
 * .log or .bin may hold compressed or encrypted data: deflating it costs time and gains
 * nothing, as for the types in STORED_EXTENSIONS).
 */
export async function compressible(source: ContentSource, size: number): Promise<boolean> {
  if (size <= SAMPLE_BYTES) return true;
  const parts: Buffer[] = [];
  for await (const chunk of await source.open({ start: 0, end: SAMPLE_BYTES - 1 })) parts.push(chunk as Buffer);
  const sample = Buffer.concat(parts);
  const deflated = await new Promise<Buffer>((resolve, reject) => zlib.deflateRaw(sample, { level: 1 }, (err, out) => (err ? reject(err) : resolve(out))));
  return deflated.length < sample.length * STORE_ABOVE;
}

/** Counts the bytes flowing from a stored file into the archive. */
class Counter extends Transform {
  constructor(private readonly onBytes: (n: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.onBytes(chunk.length);
    callback(null, chunk);
  }
}

/**
 * Passes the archive on without the bytes of its holes, counting every byte. A hole is known
 * (holes.push) before the first of its bytes comes through: yazl asks for an entry's stream
 * only after writing its local header.
 */
class Framer extends Transform {
  /** bytes of the archive seen so far */
  position = 0;
  readonly holes: ZipHole[] = [];
  /** the first hole not wholly passed */
  private next = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    let off = 0;
    while (off < chunk.length) {
      const hole = this.holes[this.next];
      const rest = chunk.length - off;
      if (!hole || this.position + rest <= hole.at) {
        this.push(off === 0 ? chunk : chunk.subarray(off));
        this.position += rest;
        break;
      }
      if (this.position < hole.at) {
        const n = hole.at - this.position;
        this.push(chunk.subarray(off, off + n));
        off += n;
        this.position += n;
        continue;
      }
      const skip = Math.min(hole.at + hole.size - this.position, rest);
      off += skip;
      this.position += skip;
      if (this.position === hole.at + hole.size) this.next++;
    }
    callback();
  }
}

/**
 * Makes the entries into a zip archive handed to `sink` as one stream (the object store writes
 * it whole), reading the files one after the other (the next few opened meanwhile: ReadAhead,
 * and the 64 KB head of a file of a compressible type read ahead: `compressible`) and reporting
 * the bytes read. With `holes`, a stored entry that names its `hole` is left out of the stream
 * (read for its CRC-32 unless that is known): the sink gets the frame only. `done` resolves
 * once the sink has it all.
 */
export function buildZip(
  entries: readonly ZipEntry[],
  sink: (frame: Readable) => Promise<void>,
  onBytes: (n: number) => void,
  o: { forceZip64Format?: boolean; holes?: boolean } = {},
): ZipBuild {
  const zip = new ZipFile();
  const out = new Framer();
  let failed: Error | null = null;
  let rejectDone: (err: Error) => void = () => undefined;
  const done = new Promise<ZipBuilt>((resolve, reject) => {
    rejectDone = reject;
    sink(out).then(
      () => (failed ? reject(failed) : resolve({ size: out.position, holes: out.holes })),
      (err: Error) => reject(failed ?? err),
    );
  });
  /** where yazl's next byte goes: right after an entry's local header when it asks for the entry's stream */
  const cursor = () => (zip as unknown as { outputStreamCursor: number }).outputStreamCursor;
  const isContent = (e: ZipEntry): e is Extract<ZipEntry, { kind: 'file' }> & { source: ContentSource } => e.kind === 'file' && e.source !== null && e.size > 0;
  /** a file of a type that may be deflated (its head then decides) */
  const ofCompressibleType = (e: ZipEntry) => shouldCompress(e.path.slice(e.path.lastIndexOf('/') + 1));
  /** a stored entry left out of the frame whose CRC-32 is known needs no read at all */
  const knownHole = (e: ZipEntry) => o.holes === true && e.kind === 'file' && !!e.hole && e.crc32 != null;
  // whether each file is deflated: decided a few entries ahead (a compressible type's head is read)
  const compressed: (boolean | undefined)[] = [];
  const deciding: Promise<boolean>[] = [];
  const decide = (i: number): Promise<boolean> => {
    const e = entries[i];
    if (!isContent(e)) return Promise.resolve(false);
    deciding[i] ??= (async () => {
      const c = ofCompressibleType(e) && (await compressible(e.source, e.size));
      compressed[i] = c;
      return c;
    })();
    deciding[i].catch(() => undefined); // a failure is thrown where the decision is awaited
    return deciding[i];
  };
  // the heads read ahead: DECIDE_AHEAD at a time, however far apart the files that need one lie
  // (one text among seven photos: counted in entries, the reads came one after the other, each a
  // request to an object store)
  const needsHead = (e: ZipEntry) => isContent(e) && e.size > SAMPLE_BYTES && ofCompressibleType(e);
  let adding = 0;
  let scanned = 0;
  let reading = 0;
  const readAhead = () => {
    scanned = Math.max(scanned, adding + 1);
    const end = Math.min(entries.length, adding + 1 + DECIDE_WINDOW);
    while (reading < DECIDE_AHEAD && scanned < end && !failed) {
      const j = scanned++;
      if (!needsHead(entries[j])) continue;
      reading++;
      const settled = () => {
        reading--;
        readAhead();
      };
      decide(j).then(settled, settled);
    }
  };
  /** whether entry i is read: a content not known to be a known hole (undecided: not yet) */
  const isRead = (i: number): boolean | null => {
    const e = entries[i];
    if (!isContent(e)) return false;
    if (!knownHole(e)) return true;
    if (!ofCompressibleType(e)) return false;
    return compressed[i] === undefined ? null : compressed[i];
  };
  const sources = new ReadAhead(
    entries.map((_, i) => i),
    (i) => (isRead(i) === true ? (entries[i] as { source: ContentSource }).source.open() : null),
  );
  const fail = (err: Error) => {
    if (failed) return;
    failed = err;
    sources.close();
    zip.outputStream.unpipe(out);
    out.destroy(err);
    rejectDone(err);
  };
  // the sink may attach its own listeners only later (a store's put starts with other work): a
  // failure before then must not be an unhandled 'error' event
  out.on('error', fail);
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(out);

  const zip64 = o.forceZip64Format === true;
  // entries are added as their compression is decided (a sample of each file of a compressible
  // type is read first, for the next few such files at once): yazl writes them in order meanwhile
  const addAll = async () => {
    for (const [i, e] of entries.entries()) {
      if (failed) return;
      const mtime = new Date(e.mtimeMs);
      if (e.kind === 'folder') {
        zip.addEmptyDirectory(e.path, { mtime });
      } else if (!isContent(e)) {
        zip.addBuffer(Buffer.alloc(0), e.path, { mtime, compress: false, forceZip64Format: zip64 });
      } else {
        adding = i;
        readAhead();
        const compress = await decide(i);
        const hole = o.holes && !compress && e.hole ? e.hole : null;
        const known = hole && knownHole(e) ? (e.crc32 as number) : null;
        zip.addReadStreamLazy(e.path, { mtime, compress, size: e.size, forceZip64Format: zip64 }, (cb) => {
          if (failed) return cb(failed, undefined as never);
          if (hole) out.holes.push({ at: cursor(), size: e.size, key: hole });
          if (known !== null) {
            // not read: the hole is what is sent
            onBytes(e.size);
            return cb(null, standIn(e.size, known));
          }
          // read when yazl reaches the entry, one at a time; the next few are opened meanwhile
          sources.take(i).then(
            (stream) => {
              const counter = new Counter(onBytes);
              stream.on('error', (err) => {
                counter.destroy(err);
                fail(err);
              });
              counter.on('error', (err) => fail(err));
              cb(null, stream.pipe(counter));
            },
            (err: Error) => {
              fail(err);
              cb(err, undefined as never);
            },
          );
        });
      }
    }
    zip.end({ forceZip64Format: zip64, comment: '' });
  };
  addAll().catch((err: Error) => fail(err));
  return {
    done,
    abort() {
      fail(new Error('aborted'));
    },
  };
}
