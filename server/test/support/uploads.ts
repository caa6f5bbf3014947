// Helpers for the 云文档 upload tests: the client's five calls as shell/src/upload/engine
// sends them (chunk numbers from 1, ceil(size / chunkSize) chunks, one empty chunk for an
// empty file, multipart fields before the part `file`).
import crypto from 'node:crypto';
import type { App } from '../../src/app';
import { call, ok } from './harness';

export const md5 = (b: Buffer | string) => crypto.createHash('md5').update(b).digest('hex');

export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** A multipart body as a browser's FormData would send it. */
export async function multipartBody(fields: Record<string, string | number>, file: Buffer, filename: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([file]), filename);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') as string };
}

export interface Auth {
  token?: string;
  /** external share calls */
  shareId?: string;
  accessKey?: string;
  /** a recipient's upload through an internal share (signed-in calls with ?shareId=) */
  internalShareId?: string;
}

/** The query of the signed-in calls made through an internal share. */
function shareQuery(auth: Auth): Record<string, string> | undefined {
  return auth.internalShareId ? { shareId: auth.internalShareId } : undefined;
}

const BASE = '/api/User/FileTransfer';

function route(auth: Auth, callName: string) {
  return auth.shareId ? `${BASE}/External/${encodeURIComponent(auth.shareId)}/${callName}` : `${BASE}/${callName}`;
}

function headers(auth: Auth, name = 'accessKey'): Record<string, string> {
  return auth.shareId && auth.accessKey !== undefined ? { [name]: auth.accessKey } : {};
}

export interface CreateBody {
  folderId: string;
  fileName: string;
  size: number;
  type?: number | string | null;
  strategy?: 0 | 1 | 2 | null;
  relativePath?: string;
  taskId?: string;
  shareId?: string | null;
  /** the chunk size wished for (large files) */
  chunkSize?: number | null;
}

export function createTask(app: App, auth: Auth, body: CreateBody) {
  return call(app, 'POST', route(auth, 'CheckAndCreateFileInfo'), {
    token: auth.token,
    headers: headers(auth),
    query: shareQuery(auth),
    body: {
      type: 2,
      strategy: null,
      relativePath: body.fileName,
      taskId: crypto.randomUUID(),
      shareId: auth.shareId ?? null,
      ...body,
    },
  });
}

/** POST …/CreateFolders: the empty folders of a dropped folder. */
export function createFolders(app: App, auth: Auth, folderId: string, paths: string[]) {
  return call(app, 'POST', route(auth, 'CreateFolders'), { token: auth.token, headers: headers(auth), query: shareQuery(auth), body: { folderId, paths } });
}

export interface ChunkOptions {
  chunkSize: number;
  totalSize: number;
  fileName?: string;
  relativePath?: string;
  /** what ChunkHash says (default: the MD5 of `data`) */
  chunkHash?: string | null;
  /** field overrides */
  fields?: Record<string, string | number>;
  /** external: the batch number in the path (default the share id) */
  batchNumber?: string;
}

export async function sendChunk(app: App, auth: Auth, fileId: string, n: number, data: Buffer, o: ChunkOptions) {
  const total = chunkCount(o.totalSize, o.chunkSize);
  const fields = {
    chunkNumber: n,
    totalChunks: total,
    chunkSize: o.chunkSize,
    currentChunkSize: data.length,
    totalSize: o.totalSize,
    identifier: 'x',
    filename: o.fileName ?? 'f.bin',
    relativePath: o.relativePath ?? o.fileName ?? 'f.bin',
    ...o.fields,
  };
  const { payload, contentType } = await multipartBody(fields, data, o.fileName ?? 'f.bin');
  const query: Record<string, string> = { fileId, RelativePath: fields.relativePath as string, ...shareQuery(auth) };
  if (o.chunkHash !== null) query.ChunkHash = o.chunkHash ?? md5(data);
  const url = auth.shareId ? `${BASE}/External/${encodeURIComponent(o.batchNumber ?? auth.shareId)}/UploadChunk2` : `${BASE}/UploadChunk2`;
  const res = await app.inject({
    method: 'POST',
    url,
    query,
    headers: {
      'content-type': contentType,
      ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
      ...headers(auth, 'Accesskey'),
    },
    payload,
  });
  let body: any = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body };
}

export function chunkOf(buf: Buffer, n: number, chunkSize: number): Buffer {
  return buf.subarray((n - 1) * chunkSize, Math.min(buf.length, n * chunkSize));
}

export function merge(app: App, auth: Auth, fileId: string, fileHash: string, relativePath = '') {
  return call(app, 'POST', route(auth, 'UploadMerge2'), { token: auth.token, headers: headers(auth), query: shareQuery(auth), body: { fileId, relativePath, fileHash } });
}

export function rapid(app: App, auth: Auth, fileId: string, fileHash: string) {
  return call(app, 'POST', route(auth, 'UploadRapid2'), { token: auth.token, headers: headers(auth), query: shareQuery(auth), body: { fileId, fileHash } });
}

/** The whole flow: create, every chunk in order, merge. Returns the Item. */
export async function uploadFile(
  app: App,
  auth: Auth,
  folderId: string,
  fileName: string,
  content: Buffer,
  chunkSize: number,
  extra: Partial<CreateBody> = {},
): Promise<any> {
  const created = await createTask(app, auth, { folderId, fileName, size: content.length, ...extra });
  if (created.body?.code !== 200 || created.body.result.conflictType !== 0) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const fileId = created.body.result.fileInfo.fileId as string;
  const total = chunkCount(content.length, chunkSize);
  for (let n = 1; n <= total; n++) {
    const r = await sendChunk(app, auth, fileId, n, chunkOf(content, n, chunkSize), { chunkSize, totalSize: content.length, fileName });
    if (r.body?.code !== 200) throw new Error(`chunk ${n}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const merged = await merge(app, auth, fileId, md5(content), extra.relativePath ?? fileName);
  if (merged.body?.code !== 200) throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
  return merged.body.result;
}

export async function listNames(app: App, token: string, folderId: string): Promise<string[]> {
  const r = await ok(app, 'GET', `/api/User/Folders/${folderId}/Items`, { token, query: { pageSize: 500 } });
  return r.items.data.map((i: any) => i.name).sort();
}
