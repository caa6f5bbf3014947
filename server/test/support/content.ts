// Test helpers for 云文档 file content: a file with given bytes (stored as an upload stores
// it: a blob through BlobStore.put and a new master version), and raw (binary) calls.
import type { App } from '../../src/app';
import { addMasterVersion } from '../../src/modules/versions/repository';
import { ok } from './harness';

/** Makes the bytes the new master content of an existing file; returns the version id. */
export async function setContent(app: App, fileId: string, bytes: Buffer, userId: string): Promise<string> {
  const db = app.db;
  const blob = await app.services.folders.blobs.put(db, bytes);
  const row = await db
    .transaction()
    .execute((trx) =>
      addMasterVersion(trx, Number(fileId), { blobId: blob?.id ?? null, size: blob?.size ?? 0, md5: blob?.md5 ?? null }, Number(userId), Date.now(), true),
    );
  return String(row.id);
}

/** Creates a file named `name` in the folder and stores the bytes as its content. */
export async function makeFile(app: App, token: string, userId: string, parentId: string, name: string, bytes: Buffer | string) {
  const item = await ok(app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type: 'file' } });
  const content = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const versionId = content.length ? await setContent(app, item.id, content, userId) : null;
  return { ...item, versionId } as { id: string; name: string; versionId: string | null; [k: string]: unknown };
}

export async function makeFolder(app: App, token: string, parentId: string, name: string) {
  return ok<{ id: string; name: string }>(app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type: 'folder' } });
}

export interface RawOptions {
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A call whose reply is kept as bytes (`payload`) as well as parsed JSON when it is JSON. */
export async function raw(app: App, method: 'GET' | 'HEAD' | 'POST', url: string, o: RawOptions = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
  if (o.cookie !== undefined) headers.cookie = `token=${o.cookie}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.inject({ method, url, headers, payload: o.body === undefined ? undefined : JSON.stringify(o.body) });
  let json: any = null;
  if (String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    try {
      json = JSON.parse(res.body);
    } catch {
      json = null;
    }
  }
  return { status: res.statusCode, headers: res.headers, payload: res.rawPayload, json };
}
