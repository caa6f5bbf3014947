// Folder downloads' zips, as buildZip makes them:
// - the CRC-32 of every entry (computed with Node's zlib, not yazl's own JavaScript loop) is
//   the one an unzip program checks: compared with a plain table-driven CRC-32 written out in
//   the test, over stored and deflated entries read in many pieces;
// - what is deflated: files of compressible types whose head shrinks; a .txt or .log holding
//   random (compressed, encrypted) bytes is stored as it is, as a .jpg always is.
import crypto from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import { buildZip, type ZipEntry } from '../src/modules/downloads/zip';

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
