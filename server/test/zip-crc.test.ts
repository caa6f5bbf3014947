// The CRC-32 of every entry of a folder download's zip (computed with Node's zlib, not yazl's own
// JavaScript loop) is the one an unzip program checks: compared here with a plain table-driven
// CRC-32 written out in the test, over stored and deflated entries read in many pieces.
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

function crcsOf(zip: Buffer): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, number> = {};
      file.on('entry', (e: yauzl.Entry) => {
        out[e.fileName] = e.crc32;
        file.readEntry();
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
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
