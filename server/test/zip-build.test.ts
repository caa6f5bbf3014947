// Folder downloads' zips, as buildZip makes them:
// - the CRC-32 of every entry (computed with Node's zlib, not yazl's own JavaScript loop) is
//   the one an unzip program checks: compared with a plain table-driven CRC-32 written out in
//   the test, over stored and deflated entries read in many pieces;
// - what is deflated: files of compressible types whose head shrinks; a .txt or .log holding
//   random (compressed, encrypted) bytes is stored as it is, as a .jpg always is; the heads
//   that decide it are read several at once, however sparse such files are;
// - an archive kept as its frame and holes (the stored entries read from their blobs when it is
//   sent) is, put together, byte for byte the archive built whole, and so is any range of it;
//   with the CRC-32 of each blob known, the build reads none of the stored files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { archiveSource } from '../src/modules/downloads/archive-source';
import { buildZip, DECIDE_AHEAD, type ZipBuilt, type ZipEntry } from '../src/modules/downloads/zip';
import { LocalStore } from '../src/modules/storage/local';
import type { ContentSource } from '../src/modules/storage/source';

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function referenceCrc(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const sourceOf = (buf: Buffer) => ({
  stat: async () => buf.length,
  // in pieces of 64 KB, as a file is read
  open: async () => Readable.from((function* () {
    for (let i = 0; i < buf.length; i += 65536) yield buf.subarray(i, i + 65536);
  })()),
});

async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const build = buildZip(
    entries,
    async (archive) => {
      const sink = new PassThrough();
      sink.on('data', (c: Buffer) => parts.push(c));
      await new Promise<void>((resolve, reject) => archive.pipe(sink).on('end', resolve).on('error', reject));
    },
    () => undefined,
  );
  await build.done;
  return Buffer.concat(parts);
}

/** name → [compression method, CRC-32, size in the archive] of each entry */
function entriesOf(zip: Buffer): Promise<Record<string, [number, number, number]>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, [number, number, number]> = {};
      file.on('entry', (e: yauzl.Entry) => {
        out[e.fileName] = [e.compressionMethod, e.crc32, e.compressedSize];
        file.readEntry();
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

async function crcsOf(zip: Buffer): Promise<Record<string, number>> {
  return Object.fromEntries(Object.entries(await entriesOf(zip)).map(([name, [, crc]]) => [name, crc]));
}

test('the check value of CRC-32 ("123456789" → cbf43926) holds for the reference', () => {
  expect(referenceCrc(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
});

test("each entry's CRC-32 in the archive is the reference CRC-32 of its content", async () => {
  const contents: Record<string, Buffer> = {
    '照片.jpg': crypto.randomBytes(3 * 1024 * 1024 + 17), // stored
    '说明.txt': Buffer.from('云文档 '.repeat(100_000)), // deflated
    '数据.bin': crypto.randomBytes(1), // one byte
  };
  const entries: ZipEntry[] = Object.entries(contents).map(([name, buf]) => ({ kind: 'file', path: `资料/${name}`, mtimeMs: Date.now(), size: buf.length, source: sourceOf(buf) }));
  const crcs = await crcsOf(await zipOf(entries));
  expect(crcs).toEqual(Object.fromEntries(Object.entries(contents).map(([name, buf]) => [`资料/${name}`, referenceCrc(buf)])));
});

test('files of compressible types are deflated when their head shrinks, stored when it does not', async () => {
  const text = Buffer.from('云文档的运行日志：一切正常。\n'.repeat(20_000));
  const random = crypto.randomBytes(300 * 1024);
  const contents: Record<string, Buffer> = {
    '日志.log': text,
    '说明.txt': Buffer.from('短小的文字'),
    '随机.txt': random, // random bytes under a text name
    '数据.bin': random,
    '照片.jpg': text, // a stored type, whatever it holds
  };
  const entries: ZipEntry[] = Object.entries(contents).map(([name, buf]) => ({ kind: 'file', path: name, mtimeMs: Date.now(), size: buf.length, source: sourceOf(buf) }));
  const zip = await zipOf(entries);
  const got = await entriesOf(zip);
  const STORED = 0;
  const DEFLATED = 8;
  expect(Object.fromEntries(Object.entries(got).map(([name, [method]]) => [name, method]))).toEqual({
    '日志.log': DEFLATED,
    '说明.txt': DEFLATED,
    '随机.txt': STORED,
    '数据.bin': STORED,
    '照片.jpg': STORED,
  });
  for (const [name, buf] of Object.entries(contents)) expect({ name, crc: got[name][1] }).toEqual({ name, crc: referenceCrc(buf) });
  // the log shrank to a fraction; stored entries are in the archive as they are
  expect(got['日志.log'][2]).toBeLessThan(text.length / 10);
  for (const name of ['随机.txt', '数据.bin', '照片.jpg']) expect({ name, size: got[name][2] }).toEqual({ name, size: contents[name].length });
});

test('the heads of files to judge are read several at once, however far apart those files lie', async () => {
  // one text among seven photos, each head taking 20 ms to arrive (an object store's request):
  // one head after the other, 20 of them would take 400 ms
  const random = crypto.randomBytes(100 * 1024);
  let inFlight = 0;
  let most = 0;
  const slowHeads = (buf: Buffer): ContentSource => ({
    stat: async () => buf.length,
    open: async (range?: { start: number; end: number }) => {
      if (!range) return Readable.from([buf]);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return Readable.from([buf.subarray(range.start, range.end + 1)]);
    },
  });
  const entries: ZipEntry[] = Array.from({ length: 160 }, (_, i) => ({
    kind: 'file',
    path: `文件${i}.${i % 8 === 6 ? 'txt' : 'jpg'}`,
    mtimeMs: Date.now(),
    size: random.length,
    source: slowHeads(random),
  }));
  const got = await entriesOf(await zipOf(entries));
  expect(Object.keys(got)).toHaveLength(160);
  // random bytes under a text name: every head judged, every file stored
  expect(Object.values(got).every(([method]) => method === 0)).toBe(true);
  expect(most).toBe(DECIDE_AHEAD);
});

describe('an archive kept as its frame and holes', () => {
  const random = crypto.randomBytes(2 * 1024 * 1024 + 5);
  const contents: [string, Buffer][] = [
    ['照片.jpg', random.subarray(0, 700_000)], // stored, with a hole
    ['说明.txt', Buffer.from('云文档 '.repeat(50_000))], // deflated: in the frame
    ['资料/视频.mp4', random], // stored, with a hole
    ['资料/空.txt', Buffer.alloc(0)],
    ['资料/无来源.jpg', random.subarray(0, 1000)], // stored, but no hole named: in the frame
    ['资料/随机.bin', random.subarray(5, 300_005)], // stored after its head was sampled
  ];
  const entriesWith = (holes: boolean): ZipEntry[] =>
    contents.map(([name, buf]) => ({
      kind: 'file',
      path: name,
      mtimeMs: 1_700_000_000_000,
      size: buf.length,
      source: buf.length ? sourceOf(buf) : null,
      hole: holes && !name.includes('无来源') ? `blob-${name}` : undefined,
    }));
  const blobOf = (key: string) => contents.find(([name]) => `blob-${name}` === key)![1];

  let whole: Buffer;
  let frame: Buffer;
  let built: ZipBuilt;
  let dir: string;
  let source: ContentSource;

  beforeAll(async () => {
    whole = await zipOf(entriesWith(false));
    const parts: Buffer[] = [];
    const build = buildZip(
      entriesWith(true),
      async (f) => {
        for await (const c of f) parts.push(c as Buffer);
      },
      () => undefined,
      { holes: true },
    );
    built = await build.done;
    frame = Buffer.concat(parts);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-frame-'));
    const store = new LocalStore(dir);
    await store.put('zips/frame', frame);
    source = archiveSource(store, 'zips/frame', built.size, built.holes, async (key, range) => Readable.from([blobOf(key).subarray(range.start, range.end + 1)]));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const read = async (s: Readable) => {
    const parts: Buffer[] = [];
    for await (const c of s) parts.push(c as Buffer);
    return Buffer.concat(parts);
  };

  test('the frame leaves out exactly the stored entries that name a hole, and nothing else', () => {
    expect(built.size).toBe(whole.length);
    expect(built.holes.map((h) => [h.key, h.size])).toEqual([
      ['blob-照片.jpg', 700_000],
      ['blob-资料/视频.mp4', random.length],
      ['blob-资料/随机.bin', 300_000],
    ]);
    expect(frame.length).toBe(whole.length - 700_000 - random.length - 300_000);
    for (const h of built.holes) expect(whole.subarray(h.at, h.at + h.size).equals(blobOf(h.key))).toBe(true);
  });

  test('put together as it is sent, it is the very archive built whole, and unzips', async () => {
    expect(await source.stat()).toBe(whole.length);
    const sent = await read(await source.open());
    expect(sent.equals(whole)).toBe(true);
    expect(await crcsOf(sent)).toEqual(Object.fromEntries(contents.map(([name, buf]) => [name, referenceCrc(buf)])));
  });

  test('any range is the same bytes of the whole archive: inside a hole, across holes and frame, the last byte', async () => {
    const first = built.holes[0];
    const ranges = [
      { start: 0, end: 0 },
      { start: first.at - 10, end: first.at + 10 },
      { start: first.at + 5, end: first.at + 99 },
      { start: first.at + first.size - 3, end: built.holes[1].at + 3 },
      { start: 1, end: whole.length - 2 },
      { start: whole.length - 1, end: whole.length - 1 },
    ];
    for (let i = 0; i < 20; i++) {
      const start = crypto.randomInt(whole.length);
      ranges.push({ start, end: start + crypto.randomInt(whole.length - start) });
    }
    for (const r of ranges) {
      const got = await read(await source.open(r));
      expect({ r, same: got.equals(whole.subarray(r.start, r.end + 1)) }).toEqual({ r, same: true });
    }
  });

  test('with the CRC-32 of each blob known (made at upload), no stored entry with a hole is read, and the frame is the same', async () => {
    const wholeReads: string[] = [];
    const entries = entriesWith(true).map((e): ZipEntry => {
      if (e.kind !== 'file' || !e.source) return e;
      const inner = e.source;
      const buf = contents.find(([name]) => name === e.path)![1];
      return {
        ...e,
        crc32: zlib.crc32(buf),
        source: {
          stat: () => inner.stat(),
          open: (range?: { start: number; end: number }) => {
            if (!range) wholeReads.push(e.path); // a sample of the head comes with a range
            return inner.open(range);
          },
        },
      };
    });
    const parts: Buffer[] = [];
    let counted = 0;
    const again = await buildZip(
      entries,
      async (f) => {
        for await (const c of f) parts.push(c as Buffer);
      },
      (n) => (counted += n),
      { holes: true },
    ).done;
    // read whole: the deflated file and the stored one without a hole; the rest are holes
    expect(wholeReads.sort()).toEqual(['说明.txt', '资料/无来源.jpg'].sort());
    expect(Buffer.concat(parts).equals(frame)).toBe(true);
    expect(again).toEqual(built);
    // the progress still reaches every byte of the files
    expect(counted).toBe(contents.reduce((sum, [, buf]) => sum + buf.length, 0));
  });

  test('a frame that is not there whole makes stat() answer null (the download is refused before any byte)', async () => {
    fs.truncateSync(path.join(dir, 'zips/frame'), frame.length - 1);
    expect(await source.stat()).toBeNull();
    fs.writeFileSync(path.join(dir, 'zips/frame'), frame);
  });
});
