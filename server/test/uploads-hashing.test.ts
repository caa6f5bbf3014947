// The upload hashing worker: chunk MD5s read back from the staging file, and the running MD5
// of the contiguous prefix that lets the merge skip reading the file again.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UploadHashing, type StagedFile } from '../src/modules/uploads/hashing';

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');
const CHUNK = 64 * 1024;

describe('upload hashing worker', () => {
  let dir: string;
  let hashing: UploadHashing;
  let content: Buffer;
  let staged: StagedFile;
  const part = (n: number) => content.subarray((n - 1) * CHUNK, Math.min(content.length, n * CHUNK));
  /** writes chunk n's bytes (or `bytes`) at its offset, as the staging file gets them */
  const write = (n: number, bytes: Buffer = part(n)) => {
    const fd = fs.openSync(staged.file, 'r+');
    fs.writeSync(fd, bytes, 0, bytes.length, (n - 1) * CHUNK);
    fs.closeSync(fd);
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-hashing-'));
    hashing = new UploadHashing();
    content = crypto.randomBytes(CHUNK * 4 + 1000); // 5 chunks, the last one short
    staged = { session: crypto.randomBytes(16).toString('hex'), file: path.join(dir, 's.part'), chunkSize: CHUNK, size: content.length };
    fs.writeFileSync(staged.file, '');
    hashing.open(staged.session);
  });

  afterEach(async () => {
    await hashing.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives each chunk its MD5 and, chunks arriving in any order, the whole file its MD5 without reading it again', async () => {
    for (const n of [2, 1, 5, 3, 4]) {
      write(n);
      await expect(hashing.chunk(staged, n, md5(part(n)))).resolves.toBe(md5(part(n)));
    }
    // the bytes on disk change behind its back: the digest comes from what was hashed as chunks came
    fs.writeFileSync(staged.file, Buffer.alloc(content.length));
    await expect(hashing.digest(staged)).resolves.toBe(md5(content));
    // read from the start, it sees the file as it is now
    await expect(hashing.digest(staged, true)).resolves.toBe(md5(Buffer.alloc(content.length)));
  });

  it('does not count a chunk whose bytes do not match its hash', async () => {
    write(1);
    await hashing.chunk(staged, 1, md5(part(1)));
    const wrong = Buffer.from(part(2));
    wrong[10] ^= 0xff;
    write(2, wrong);
    await expect(hashing.chunk(staged, 2, md5(part(2)))).resolves.toBe(md5(wrong));
    write(2);
    await expect(hashing.chunk(staged, 2, md5(part(2)))).resolves.toBe(md5(part(2)));
    for (const n of [3, 4, 5]) {
      write(n);
      await hashing.chunk(staged, n, md5(part(n)));
    }
    await expect(hashing.digest(staged)).resolves.toBe(md5(content));
  });

  it('hashes the file from its start when it knows nothing of the session (after a restart)', async () => {
    fs.writeFileSync(staged.file, content);
    await hashing.close();
    const fresh = new UploadHashing();
    try {
      await expect(fresh.digest(staged)).resolves.toBe(md5(content));
      await expect(fresh.chunk(staged, 3, md5(part(3)))).resolves.toBe(md5(part(3)));
    } finally {
      await fresh.close();
    }
  });

  it('fails the calls in hand when its worker dies, and starts a new one for the next call', async () => {
    // a chunk large enough to be still in hand when the worker is stopped
    const big = { ...staged, file: path.join(dir, 'big.part'), chunkSize: 64 << 20, size: 64 << 20 };
    fs.writeFileSync(big.file, Buffer.alloc(big.size, 7));
    const pending = hashing.chunk(big, 1, '0'.repeat(32));
    await (hashing as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(pending).rejects.toThrow();
    fs.writeFileSync(staged.file, content);
    // the new worker knows nothing of the session: the digest reads the whole file
    await expect(hashing.chunk(staged, 2, md5(part(2)))).resolves.toBe(md5(part(2)));
    await expect(hashing.digest(staged)).resolves.toBe(md5(content));
  });

  it('refuses a range the staging file does not hold', async () => {
    fs.writeFileSync(staged.file, content.subarray(0, CHUNK));
    await expect(hashing.chunk(staged, 3, md5(part(3)))).rejects.toThrow(/shorter/);
    // and goes on answering
    await expect(hashing.chunk(staged, 1, md5(part(1)))).resolves.toBe(md5(part(1)));
  });
});
