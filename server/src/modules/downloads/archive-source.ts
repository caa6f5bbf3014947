// A zip archive of 云文档 kept as its frame and holes (zip.ts): the frame object holds every
// byte but those of the stored entries, which are read from their blobs as the archive is sent.
// The archive is never written out whole: a download reads each stored file once, from where
// it already lies (a few ahead of their turn), and a range reads only the pieces it covers.
import { Readable } from 'node:stream';
import { ReadAhead } from '../storage/read-ahead';
import type { ContentSource } from '../storage/source';
import type { ByteRange, ObjectStore } from '../storage/store';
import type { ZipHole } from './zip';

/**
 * Pieces of the frame up to this size are read a window of this size at a time (the headers
 * between stored entries are a few hundred bytes each: one read serves many, which matters on
 * an object store); a longer piece (a deflated entry) streams on its own.
 */
const FRAME_WINDOW = 1024 * 1024;

type Piece = { frame: true; start: number; end: number } | { frame: false; key: string; start: number; end: number };

/**
 * The pieces of the archive's bytes [start, end] (inclusive), in order: ranges of the frame
 * (offsets in the frame) and of blobs (offsets in the blob), each end exclusive.
 */
export function piecesOf(size: number, holes: readonly ZipHole[], range: ByteRange): Piece[] {
  const want = { start: range.start, end: range.end + 1 };
  const pieces: Piece[] = [];
  let at = 0; // archive offset of the next piece
  let frameAt = 0; // frame offset of the next frame piece
  const take = (from: number, to: number, piece: (a: number, b: number) => Piece) => {
    const a = Math.max(from, want.start);
    const b = Math.min(to, want.end);
    if (a < b) pieces.push(piece(a - from, b - from));
  };
  for (const h of holes) {
    if (at >= want.end) break;
    const base = frameAt;
    take(at, h.at, (a, b) => ({ frame: true, start: base + a, end: base + b }));
    frameAt += h.at - at;
    take(h.at, h.at + h.size, (a, b) => ({ frame: false, key: h.key, start: a, end: b }));
    at = h.at + h.size;
  }
  const base = frameAt;
  take(at, size, (a, b) => ({ frame: true, start: base + a, end: base + b }));
  return pieces;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/**
 * The archive of `size` bytes whose frame is `frameKey` and whose holes are read through
 * `blob` (the blob store's object of a storage key). stat() answers the archive's size when
 * the frame is there whole: the blobs are held by the task (their references) and not checked.
 */
export function archiveSource(
  store: ObjectStore,
  frameKey: string,
  size: number,
  holes: readonly ZipHole[],
  blob: (key: string, range: ByteRange) => Promise<Readable>,
): ContentSource {
  const frameSize = size - holes.reduce((sum, h) => sum + h.size, 0);
  return {
    async stat() {
      const frame = await store.stat(frameKey);
      return frame && frame.size === frameSize ? size : null;
    },
    async open(range = { start: 0, end: size - 1 }) {
      const pieces = piecesOf(size, holes, range);
      let window: { start: number; bytes: Buffer } | null = null;
      // the blob pieces: the next few are asked for while one streams
      const blobs = new ReadAhead(pieces, (p) => (p.frame ? null : blob(p.key, { start: p.start, end: p.end - 1 })));
      async function* bytes(): AsyncGenerator<Buffer> {
        try {
          for (let i = 0; i < pieces.length; i++) {
            const p = pieces[i];
            if (!p.frame) {
              for await (const chunk of await blobs.take(i)) yield chunk as Buffer;
              continue;
            }
            if (p.end - p.start > FRAME_WINDOW) {
              for await (const chunk of await store.get(frameKey, { start: p.start, end: p.end - 1 })) yield chunk as Buffer;
              continue;
            }
            if (!window || p.start < window.start || p.end > window.start + window.bytes.length) {
              const end = Math.min(frameSize, p.start + FRAME_WINDOW);
              window = { start: p.start, bytes: await readAll(await store.get(frameKey, { start: p.start, end: end - 1 })) };
            }
            yield window.bytes.subarray(p.start - window.start, p.end - window.start);
          }
        } finally {
          // a download cut short: the blobs asked for ahead are let go
          blobs.close();
        }
      }
      return Readable.from(bytes(), { objectMode: false });
    },
  };
}
