// What the load figures (9: several instances, 10: the operation log's cost) share: signed-in
// people with a few small files uploaded through the real calls, a pool of concurrent work
// (figures 3 and 4 upload with it too), calls without a client timeout, and percentiles.
import crypto from 'node:crypto';
import http from 'node:http';
import { createUser, login, personalRoot, createFolder, startServer } from '../../e2e/harness.mjs';
import { createUpload } from '../../e2e/uploadClient.mjs';

const BASE = '/api/User/FileTransfer';
/** words the seeded file names and contents are made of (searches look for them) */
export const WORDS = ['合同', '报告', '预算', '会议纪要', '方案', '设计', '发票', '计划', '总结', '周报', '采购', 'plan', 'report', 'budget', 'invoice', 'design'];

/** Nearest-rank percentile (p99 of 200 samples is the second slowest). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

/** Runs fn over items, `limit` at a time. */
export async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }));
  return out;
}

/**
 * One API call over node:http without a client timeout (a merge of 1 GB may take long);
 * returns the envelope's result, or throws.
 */
export function callOk(url, method, urlPath, { token, json } = {}) {
  return new Promise((resolve, reject) => {
    const h = { Accept: 'application/json' };
    if (token) h.Authorization = `Bearer ${token}`;
    const payload = json === undefined ? null : Buffer.from(JSON.stringify(json));
    if (payload) {
      h['Content-Type'] = 'application/json';
      h['Content-Length'] = payload.length;
    }
    const req = http.request(`${url}${urlPath}`, { method, headers: h, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (res.statusCode !== 200 || body?.code !== 200) reject(new Error(`${method} ${urlPath} -> HTTP ${res.statusCode} ${text.slice(0, 400)}`));
        else resolve(body.result);
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A small file through the real upload calls (create, the chunk, merge). */
export async function uploadSmall(url, token, folderId, fileName, content, chunkSize) {
  const fileHash = crypto.createHash('md5').update(content).digest('hex');
  const fileId = await createUpload({ url }, token, folderId, { fileName, size: content.length });
  const form = new FormData();
  const fields = { chunkNumber: 1, totalChunks: 1, chunkSize, currentChunkSize: content.length, totalSize: content.length, identifier: fileHash, filename: fileName, relativePath: fileName };
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([content]), fileName);
  const res = await fetch(`${url}${BASE}/UploadChunk2?${new URLSearchParams({ fileId, RelativePath: fileName, ChunkHash: fileHash })}`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form,
  });
  const body = await res.json().catch(() => null);
  if (res.status !== 200 || body?.code !== 200) throw new Error(`chunk of ${fileName}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return callOk(url, 'POST', `${BASE}/UploadMerge2`, { token, json: { fileId, relativePath: fileName, fileHash } });
}

/**
 * `count` people, each signed in with a 资料 folder of `files` small files and an empty 上传
 * folder: the users of bench/lib/cluster-load.mjs's configuration.
 */
export async function seedUsers(url, adminToken, chunkSize, { count, files, concurrency = 16, prefix = 'load' }) {
  const front = { url };
  return pool(Array.from({ length: count }, (_, i) => i), concurrency, async (i) => {
    const password = `Bench-Load-Passw0rd-${i}!`;
    const user = await createUser(front, adminToken, { userName: `${prefix}${i}`, nickName: `压测用户${i}`, password });
    const { token } = await login(front, user.userName, password);
    const root = await personalRoot(front, token);
    const docs = await createFolder(front, token, root.id, '资料');
    const uploads = await createFolder(front, token, root.id, '上传');
    const fileIds = [];
    for (let k = 0; k < files; k++) {
      const w1 = WORDS[(i + k) % WORDS.length];
      const w2 = WORDS[(i * 3 + k * 5 + 1) % WORDS.length];
      const content = Buffer.from(`${w1} ${w2} ${i} ${k}\n${crypto.randomBytes(2048 + 512 * k).toString('base64')}\n`);
      const item = await uploadSmall(url, token, docs.id, `${w1}${w2}-${i}-${k}.txt`, content, chunkSize);
      fileIds.push(item.id);
    }
    return { index: i, token, rootId: root.id, docsId: docs.id, uploadsId: uploads.id, fileIds };
  });
}

let dbSeq = 0;

/**
 * A fresh database for one server: a new PostgreSQL database next to `baseUrl` (named
 * `<prefix>_<pid>_<n>`, dropped by drop()), or nothing (the server's own SQLite) without one.
 */
export async function freshDatabase(baseUrl, prefix, pg) {
  if (!baseUrl) return { env: {}, url: null, async drop() {} };
  const name = `${prefix}_${process.pid}_${++dbSeq}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: u.toString() },
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The built server on a fresh database (see freshDatabase), the administrator signed in;
 * stop() stops it and drops the database.
 */
export async function freshServer(baseUrl, prefix, pg, env = {}) {
  const database = await freshDatabase(baseUrl, prefix, pg);
  let server;
  try {
    server = await startServer({ env: { ...database.env, ...env } });
  } catch (err) {
    await database.drop();
    throw err;
  }
  const { token } = await login(server);
  return {
    server,
    token,
    database,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
