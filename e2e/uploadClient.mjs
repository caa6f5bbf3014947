// The upload protocol of 云文档 (api-contract "Upload") spoken from Node, for tests and
// benchmarks that need files on the server without a page: options, create, rapid, chunks
// (3 in flight, read from disk slice by slice) and merge. The page's own engine lives in the shell.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiOk } from './harness.mjs';

const BASE = '/api/User/FileTransfer';

/** Hex MD5 of a file, streamed. */
export async function md5File(file) {
  const hash = crypto.createHash('md5');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * POST …/CheckAndCreateFileInfo for a new file of `size` bytes in `folderId`; returns its
 * upload task's fileId, and throws when a same-named item exists.
 */
export async function createUpload(server, token, folderId, { fileName, size, relativePath = fileName }) {
  const created = await apiOk(server, 'POST', `${BASE}/CheckAndCreateFileInfo`, {
    token,
    body: { folderId, fileName, size, type: null, strategy: null, relativePath, taskId: crypto.randomUUID(), shareId: null },
  });
  if (created.conflictType !== 0) throw new Error(`${fileName}: a same-named item exists`);
  return created.fileInfo.fileId;
}

/**
 * Sends every chunk of `file` as the multipart UploadChunk2 request of 云文档 (the form fields,
 * the part `file`, the query fileId, RelativePath and, with `chunkCheck`, ChunkHash), `inFlight`
 * at a time, each chunk read from disk when its turn comes. `url` is the UploadChunk2 endpoint
 * without query. Any answer other than HTTP 200 with envelope code 200 throws. Returns the
 * number of chunks.
 */
export async function sendChunks({ url, token, fileId, file, chunkSize, fileName = path.basename(file), relativePath = fileName, inFlight = 3, chunkCheck = false }) {
  const size = fs.statSync(file).size;
  const total = Math.max(1, Math.ceil(size / chunkSize));
  const fh = await fs.promises.open(file, 'r');
  /** chunk `n` read from disk in full (a read may return fewer bytes than asked) */
  const readChunk = async (n) => {
    const start = (n - 1) * chunkSize;
    const bytes = Buffer.allocUnsafe(Math.min(size, n * chunkSize) - start);
    let done = 0;
    while (done < bytes.length) {
      const { bytesRead } = await fh.read(bytes, done, bytes.length - done, start + done);
      if (!bytesRead) throw new Error(`${fileName}: the file ended early`);
      done += bytesRead;
    }
    return bytes;
  };
  let next = 1;
  const worker = async () => {
    while (next <= total) {
      const n = next++;
      const bytes = await readChunk(n);
      const form = new FormData();
      const fields = {
        chunkNumber: n, totalChunks: total, chunkSize, currentChunkSize: bytes.length, totalSize: size,
        identifier: fileId, filename: fileName, relativePath,
      };
      for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
      form.append('file', new Blob([bytes]), fileName);
      const q = new URLSearchParams({ fileId, RelativePath: relativePath });
      if (chunkCheck) q.set('ChunkHash', crypto.createHash('md5').update(bytes).digest('hex'));
      const res = await fetch(`${url}?${q}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      const body = await res.json().catch(() => null);
      if (res.status !== 200 || body?.code !== 200) throw new Error(`chunk ${n} of ${fileName}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
  } finally {
    await fh.close();
  }
  return total;
}

/**
 * Uploads `file` into `folderId` and returns the merged Item, or `{ rapid: true, item }` when
 * the server already held the content. `fileHash` may be passed when known.
 */
export async function uploadFile(server, token, folderId, file, { fileName = path.basename(file), relativePath = fileName, fileHash, inFlight = 3 } = {}) {
  const options = await apiOk(server, 'GET', `${BASE}/FileUploadOptions`, { token });
  const size = fs.statSync(file).size;
  const fileId = await createUpload(server, token, folderId, { fileName, size, relativePath });
  const hash = fileHash ?? (await md5File(file));
  const rapid = await apiOk(server, 'POST', `${BASE}/UploadRapid2`, { token, body: { fileId, fileHash: hash } });
  if (rapid.success) return { rapid: true, item: rapid.item ?? null, fileId };

  await sendChunks({
    url: `${server.url}${BASE}/UploadChunk2`, token, fileId, file, chunkSize: Number(options.chunkSize), fileName, relativePath, inFlight,
    chunkCheck: options.chunkCheck === true,
  });
  const item = await apiOk(server, 'POST', `${BASE}/UploadMerge2`, { token, body: { fileId, relativePath, fileHash: hash } });
  return { rapid: false, item, fileId };
}

/** The upload calls a page makes (name, start and end), from its request events. */
export function watchUploadCalls(page) {
  const calls = [];
  const onRequest = (r) => {
    const m = /FileTransfer\/(CheckAndCreateFileInfo|UploadRapid2|UploadChunk2|UploadMerge2)/.exec(r.url());
    if (m) calls.push({ name: m[1], request: r, start: performance.now(), end: null });
  };
  const onDone = (r) => {
    const c = calls.find((x) => x.request === r);
    if (c) c.end = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  return {
    calls,
    stop() {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
    },
    first: (name) => calls.find((c) => c.name === name),
    last: (name) => calls.filter((c) => c.name === name).at(-1),
  };
}
