// The upload hashing worker: the running MD5 and CRC-32 of each session's contiguous prefix of
// recorded chunks, which lets the merge skip reading the staging file again.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { UploadHashing, type StagedFile } from '../src/modules/uploads/hashing';

/** what the worker answers for the whole of `b` */
const md5 = (b: Buffer) => ({ md5: crypto.createHash('md5').update(b).digest('hex'), crc32: zlib.crc32(b) });
const CHUNK = 64 * 1024;

describe('upload hashing worker', () => {
  let dir: string;
  let hashing: UploadHashing;
  let content: Buffer;
  let staged: StagedFile;
  const part = (n: number) => content.subarray((n - 1) * CHUNK, Math.min(content.length, n * CHUNK));
  /** writes chunk n's bytes at its offset, as the staging file gets them */
  const write = (n: number) => {
    const fd = fs.openSync(staged.file, 'r+');
    fs.writeSync(fd, part(n), 0, part(n).length, (n - 1) * CHUNK);
    fs.closeSync(fd);
  };
  const zeroed = () => Buffer.alloc(content.length);

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

  it('makes the whole file’s MD5 and CRC-32 from chunks recorded in any order, without reading the file at the merge', async () => {
    for (const n of [2, 1, 5, 3, 4, 3]) {
      write(n);
      hashing.recorded(staged, n);
    }
    // the digest is answered after the chunks told before it; then the bytes on disk change
    // behind its back, and the digest still comes from what was hashed as chunks came
    await expect(hashing.digest(staged)).resolves.toEqual(md5(content));
    fs.writeFileSync(staged.file, zeroed());
    await expect(hashing.digest(staged)).resolves.toEqual(md5(content));
    // read from the start, it sees the file as it is now
    await expect(hashing.digest(staged, true)).resolves.toEqual(md5(zeroed()));
  });

  it('finishes from disk what was not recorded before the digest', async () => {
    fs.writeFileSync(staged.file, content);
    hashing.recorded(staged, 1);
    hashing.recorded(staged, 3); // ahead of a gap: not in the prefix yet
    await expect(hashing.digest(staged)).resolves.toEqual(md5(content));
  });

  it('hashes the file from its start when it knows nothing of the session (after a restart)', async () => {
    fs.writeFileSync(staged.file, content);
    await hashing.close();
    const fresh = new UploadHashing();
    try {
      fresh.recorded(staged, 1); // not running, nothing known: nothing to do
      await expect(fresh.digest(staged)).resolves.toEqual(md5(content));
    } finally {
      await fresh.close();
    }
  });

  it('fails the digest in hand when its worker dies, and starts a new one for the next call', async () => {
    // a file large enough to be still in hand when the worker is stopped
    const big = { ...staged, session: 'big', file: path.join(dir, 'big.part'), chunkSize: 64 << 20, size: 64 << 20 };
    fs.writeFileSync(big.file, Buffer.alloc(big.size, 7));
    const pending = hashing.digest(big);
    // the worker thread itself (inside its lib/worker-client.ts WorkerClient)
    await (hashing as unknown as { worker: { worker: { terminate(): Promise<number> } } }).worker.worker.terminate();
    await expect(pending).rejects.toThrow();
    fs.writeFileSync(staged.file, content);
    await expect(hashing.digest(staged)).resolves.toEqual(md5(content));
  });

  it('refuses a digest of a file shorter than the session, and forgets a prefix it could not read', async () => {
    fs.writeFileSync(staged.file, content.subarray(0, CHUNK));
    hashing.recorded(staged, 1);
    hashing.recorded(staged, 2); // not on disk: the prefix is dropped
    await expect(hashing.digest(staged)).rejects.toThrow(/shorter/);
    fs.writeFileSync(staged.file, content);
    await expect(hashing.digest(staged)).resolves.toEqual(md5(content));
  });
});
