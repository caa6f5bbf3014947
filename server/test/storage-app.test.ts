// 云文档 with its file contents in S3 (Ceph's RADOS Gateway from Debian's packages, started by
// scripts/rgw.sh), on SQLite and PostgreSQL: an upload in chunks lands in the bucket and not in
// the data folder; downloads whole and by range, a zip of a folder and a text preview read from
// the store; preview outputs (a thumbnail, a PDF) are made once into the bucket under `previews/`
// and served from it, by either of two instances; purging the file removes its object; the
// orphan sweep removes what no row claims; a wrong key stops the start with a Chinese reason.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { App } from '../src/app';
import type { ObjectStore } from '../src/modules/storage';
import { call, createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { makeFolder, raw } from './support/content';
import { wordDocument } from './support/documents';
import { objectStoreAvailable, startObjectStore, type ObjectStoreServer } from './support/rgw';
import { chunkOf, createTask, listNames, merge, multipartBody, sendChunk, uploadFile } from './support/uploads';
import { readZip } from './support/zip';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const md5 = (b: Buffer | string) => crypto.createHash('md5').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rgw = objectStoreAvailable();
if (!rgw) console.warn('ceph-mon, ceph-osd or radosgw is missing (Debian packages): the S3 storage tests of the server are skipped');

async function keys(store: ObjectStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of store.list(prefix)) out.push(o.key);
  return out;
}

const libreOffice = loadConfig({ DATA_DIR: os.tmpdir() }).preview.soffice !== null;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

(rgw ? describe : describe.skip)('file contents in S3', () => {
  let s3: ObjectStoreServer;
  beforeAll(async () => {
    s3 = await startObjectStore();
  }, 120_000);
  afterAll(async () => {
    await s3?.stop();
  });

  describe.each(databaseKinds())('%s', (kind) => {
    let server: TestServer;
    let token: string;
    let rootId: string;
    const app = () => server.app;
    const store = () => app().services.objects;

    beforeAll(async () => {
      server = await startServer(kind, { env: s3.env(`ywd-${kind}`, 'app/') });
      token = (await login(app())).token;
      rootId = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
    });
    afterAll(async () => {
      await server?.close();
    });

    test('an upload in chunks is stored in the bucket, not in the data folder, and downloads whole and by range', async () => {
      expect(store().kind).toBe('s3');
      const content = crypto.randomBytes(12 * MiB + 333);
      const file = await uploadFile(app(), { token }, rootId, '大文件.bin', content, 5 * MiB);
      const blob = await app().db.selectFrom('blobs').selectAll().where('md5', '=', md5(content)).executeTakeFirstOrThrow();
      expect(Number(blob.crc32)).toBe(zlib.crc32(content)); // carried with the MD5 over the parts' spools
      expect(await keys(store(), 'blobs/')).toContain(`blobs/${blob.storage_key}`);
      expect(filesUnder(path.join(server.config.dataDir, 'blobs'))).toEqual([]);

      const whole = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token });
      expect(whole.status).toBe(200);
      expect(md5(whole.payload)).toBe(md5(content));
      const part = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token, headers: { range: `bytes=${5 * MiB - 10}-${5 * MiB + 9}` } });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${5 * MiB - 10}-${5 * MiB + 9}/${content.length}`);
      expect(part.payload).toEqual(content.subarray(5 * MiB - 10, 5 * MiB + 10));
    });

    test('a zip of a folder and a text preview read from the store', async () => {
      const folder = await makeFolder(app(), token, rootId, '资料');
      const a = Buffer.from('第一份资料\n'.repeat(1000));
      const b = crypto.randomBytes(300_000);
      const textFile = await uploadFile(app(), { token }, folder.id, '说明.txt', a, 5 * MiB);
      await uploadFile(app(), { token }, folder.id, '数据.bin', b, 5 * MiB);

      const created = await ok(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: [folder.id] });
      let status: { state: string; downloadUrl: string } = { state: 'pending', downloadUrl: '' };
      for (let i = 0; i < 600 && status.state !== 'ready' && status.state !== 'failed'; i++) {
        status = await ok(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${created.taskId}/Status`, { token });
        await sleep(20);
      }
      expect(status.state).toBe('ready');
      const zip = await raw(app(), 'GET', status.downloadUrl, { token });
      const entries = await readZip(zip.payload);
      expect(entries.filter((e) => !e.name.endsWith('/')).map((e) => [e.name, e.md5]).sort()).toEqual(
        [
          ['资料/数据.bin', md5(b)],
          ['资料/说明.txt', md5(a)],
        ].sort(),
      );

      const preview = await ok(app(), 'GET', `/api/User/Preview/${textFile.id}/Text`, { token });
      expect(preview).toMatchObject({ encoding: 'utf-8', size: a.length, truncated: false });
      expect(preview.text).toBe(a.toString());
    });

    test('a thumbnail and an office PDF are made into the bucket under previews/ and served from it, nothing under the data folder', async () => {
      const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: kind === 'sqlite' ? '#2255aa' : '#aa5522' } }).jpeg().toBuffer();
      const photo = await uploadFile(app(), { token }, rootId, '照片.jpg', jpeg, 5 * MiB);
      const thumb = await raw(app(), 'GET', `/api/User/Preview/${photo.id}/Thumbnail`, { token });
      expect({ status: thumb.status, type: thumb.headers['content-type'] }).toEqual({ status: 200, type: 'image/webp' });
      expect(await sharp(thumb.payload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 192 });
      const thumbKey = `previews/thumb/${md5(jpeg)}-${jpeg.length}.webp`;
      const row = await app().db.selectFrom('preview_conversions').select(['status', 'output', 'bytes']).where('content_key', '=', `thumb:${md5(jpeg)}-${jpeg.length}`).executeTakeFirstOrThrow();
      expect({ ...row, bytes: Number(row.bytes) }).toEqual({ status: 'done', output: thumbKey, bytes: thumb.payload.length });
      expect(await keys(store(), 'previews/')).toContain(thumbKey);
      expect((await store().stat(thumbKey))?.size).toBe(thumb.payload.length);

      if (libreOffice) {
        const doc = await wordDocument(['对象存储中的预览', '第二段']);
        const file = await uploadFile(app(), { token }, rootId, '报告.docx', doc, 5 * MiB);
        let state = { status: 'converting' };
        for (let i = 0; i < 60 && state.status === 'converting'; i++) state = await ok(app(), 'GET', `/api/User/Preview/${file.id}/Conversion`, { token });
        expect(state).toEqual({ status: 'ready', message: '' });
        const pdf = await raw(app(), 'GET', `/api/User/Preview/${file.id}/Pdf`, { token });
        expect(pdf.status).toBe(200);
        expect(pdf.payload.subarray(0, 5).toString()).toBe('%PDF-');
        const pdfKey = `previews/pdf/${md5(doc)}-${doc.length}.pdf`;
        expect(await keys(store(), 'previews/pdf/')).toEqual([pdfKey]);
        expect((await store().stat(pdfKey))?.size).toBe(pdf.payload.length);
      }

      // nothing on the instance's disk: no output folder, no temporary leftovers
      expect(filesUnder(path.join(server.config.dataDir, 'previews'))).toEqual([]);
      expect(filesUnder(path.join(server.config.dataDir, 'tmp'))).toEqual([]);

      // the object gone from the bucket: the next view makes it again
      await store().delete([thumbKey]);
      expect((await raw(app(), 'GET', `/api/User/Preview/${photo.id}/Thumbnail`, { token })).status).toBe(200);
      expect(await store().stat(thumbKey)).not.toBeNull();
    });

    test('purging a file removes its object once nothing holds it; the orphan sweep removes what no row claims', async () => {
      const content = crypto.randomBytes(2 * MiB);
      const file = await uploadFile(app(), { token }, rootId, '要删除的.bin', content, 5 * MiB);
      const blob = await app().db.selectFrom('blobs').selectAll().where('md5', '=', md5(content)).executeTakeFirstOrThrow();
      const key = `blobs/${blob.storage_key}`;
      expect(await store().stat(key)).not.toBeNull();
      await ok(app(), 'DELETE', '/api/User/Files', { token, body: [file.id] });
      expect((await ok(app(), 'DELETE', '/api/User/Recycle', { token, body: [file.id] })).purged).toBe(1);
      expect(await store().stat(key)).toBeNull();

      // an object whose transaction never committed: no row claims it
      await store().put('blobs/ff/ffffffffffffffffffffffffffffffff-999999', Buffer.from('孤儿'));
      const kept = (await app().db.selectFrom('blobs').select('storage_key').execute()).map((r) => `blobs/${r.storage_key}`);
      expect(await app().services.folders.blobs.sweep(app().db)).toMatchObject({ removed: 0 }); // too young yet
      const report = await app().services.folders.blobs.sweep(app().db, Date.now() + 2 * 24 * 3600 * 1000);
      expect(report).toMatchObject({ removed: 1, samples: ['blobs/ff/ffffffffffffffffffffffffffffffff-999999'] });
      expect((await keys(store(), 'blobs/')).sort()).toEqual(kept.sort());
      // every file still downloads
      const big = (await ok(app(), 'GET', `/api/User/Folders/${rootId}/Items`, { token, query: { pageSize: 50 } })).items.data.find((i: { name: string }) => i.name === '大文件.bin');
      expect((await raw(app(), 'GET', `/api/User/FileTransfer/Download/${big.id}`, { token })).status).toBe(200);
    });

    test('chunks of 5 MiB are parts of one multipart upload: out of order and with a spool lost the merge reads the object back; a content stored already and an abandoned upload leave nothing behind', async () => {
      const chunks = app().services.uploads.chunks!;
      const mp = store().multipart!;
      const saved = { ...chunks.waits };
      const unfinished = async (id: string) => {
        const found: string[] = [];
        for await (const u of mp.listMultipart(`blobs/up/${id}`)) found.push(u.uploadId);
        return found;
      };
      const session = (id: string) => app().db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const content = crypto.randomBytes(12 * MiB + 99);
      const send = async (fileId: string, n: number) => {
        const r = await sendChunk(app(), { token }, fileId, n, chunkOf(content, n, 5 * MiB), { chunkSize: 5 * MiB, totalSize: content.length, fileName: '乱序.bin' });
        expect(r.status).toBe(200);
      };
      try {
        // chunk 2 first: it waits for chunk 1 a short while (shortened here), then gives up its spool
        Object.assign(chunks.waits, { waitMs: 300, stuckMs: 300, pollMs: 20 });
        const first = (await createTask(app(), { token }, { folderId: rootId, fileName: '乱序.bin', size: content.length })).body.result.fileInfo.fileId as string;
        await send(first, 2);
        expect(await unfinished(first)).toHaveLength(1); // the chunk went to the store as a part
        await send(first, 1);
        await send(first, 3);
        expect(Number((await session(first)).hashed_through)).toBe(1); // the running MD5 stopped before chunk 2
        const merged = await merge(app(), { token }, first, md5(content), '乱序.bin');
        expect(merged.status).toBe(200);
        const blob = await app().db.selectFrom('blobs').selectAll().where('md5', '=', md5(content)).executeTakeFirstOrThrow();
        expect(blob.storage_key).toBe(`up/${first}`); // completed where the upload was started, not copied
        expect(Number(blob.crc32)).toBe(zlib.crc32(content)); // made again from the completed object at the merge
        expect(await unfinished(first)).toEqual([]);
        expect(md5((await raw(app(), 'GET', `/api/User/FileTransfer/Download/${merged.body.result.id}`, { token })).payload)).toBe(md5(content));
        expect(filesUnder(path.join(server.config.dataDir, 'tmp', 'upload-parts'))).toEqual([]);

        // the same content again, in order: the stored blob is taken, the new upload is dropped
        Object.assign(chunks.waits, saved);
        const second = (await createTask(app(), { token }, { folderId: rootId, fileName: '乱序-副本.bin', size: content.length })).body.result.fileInfo.fileId as string;
        for (const n of [1, 2, 3]) await send(second, n);
        expect(Number((await session(second)).hashed_through)).toBe(3);
        expect((await merge(app(), { token }, second, md5(content), '乱序-副本.bin')).status).toBe(200);
        expect(Number((await app().db.selectFrom('blobs').select('ref_count').where('id', '=', blob.id).executeTakeFirstOrThrow()).ref_count)).toBe(2);
        expect(await unfinished(second)).toEqual([]);
        expect(await store().stat(`blobs/up/${second}`)).toBeNull();

        // an upload abandoned after one chunk: its expiry aborts the multipart upload
        const third = (await createTask(app(), { token }, { folderId: rootId, fileName: '放弃.bin', size: content.length })).body.result.fileInfo.fileId as string;
        await send(third, 1);
        expect(await unfinished(third)).toHaveLength(1);
        // and a spool a crash left behind (no session of that id is open) goes too
        const leftover = path.join(server.config.dataDir, 'tmp', 'upload-parts', crypto.randomBytes(16).toString('hex'));
        fs.mkdirSync(leftover, { recursive: true });
        fs.writeFileSync(path.join(leftover, '1'), 'x');
        await app().services.uploads.sweep(Date.now() + app().services.uploads.limits.sessionTtlMs + 60_000);
        expect(await unfinished(third)).toEqual([]);
        expect(fs.existsSync(leftover)).toBe(false);
        expect(await app().db.selectFrom('upload_sessions').select('id').where('id', '=', third).executeTakeFirst()).toBeUndefined();
      } finally {
        Object.assign(chunks.waits, saved);
      }
    });

    test('an avatar and a branding picture are kept in the bucket and served from it', async () => {
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } }).png().toBuffer();
      const put = async (url: string) => {
        const { payload, contentType } = await multipartBody({}, png, 'p.png');
        const res = await app().inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
        expect(res.statusCode).toBe(200);
        return JSON.parse(res.body).result;
      };
      const avatarUrl = (await put('/api/account/avatar')).avatar as string;
      const logoUrl = (await put('/api/Admin/Branding/Images/logoLight')).logo_Light as string;
      expect(await keys(store(), 'avatars/')).toHaveLength(1);
      expect((await keys(store(), 'branding/')).map((k) => `/api/Client/Branding/Images/${k.slice('branding/'.length)}`)).toEqual([logoUrl]);
      expect(filesUnder(path.join(server.config.dataDir, 'avatars'))).toEqual([]);
      expect(filesUnder(path.join(server.config.dataDir, 'branding'))).toEqual([]);
      const avatar = await app().inject({ method: 'GET', url: avatarUrl, headers: { authorization: `Bearer ${token}` } });
      expect(avatar.statusCode).toBe(200);
      expect((await sharp(avatar.rawPayload).metadata()).format).toBe('webp');
      const logo = await app().inject({ method: 'GET', url: logoUrl });
      expect(logo.statusCode).toBe(200);
      expect((await sharp(logo.rawPayload).metadata()).width).toBeGreaterThan(0);
    });

    test('a content missing from the store answers the Chinese 500 before any byte, not a broken download', async () => {
      const content = crypto.randomBytes(1000);
      const file = await uploadFile(app(), { token }, rootId, '丢失.bin', content, 5 * MiB);
      const blob = await app().db.selectFrom('blobs').selectAll().where('md5', '=', md5(content)).executeTakeFirstOrThrow();
      expect(Number(blob.crc32)).toBe(zlib.crc32(content)); // a chunk kept as an object
      await store().delete([`blobs/${blob.storage_key}`]);
      const res = await call(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 50001, message: '文件内容已丢失，请联系管理员', result: null });
    });
  });

  // two instances on one PostgreSQL and one bucket, each with its own data folder (as on two machines)
  (databaseKinds().includes('postgres') ? describe : describe.skip)('zip tasks across two instances', () => {
    let server: TestServer;
    let a: App;
    let b: App;
    let token: string;
    let folderId: string;
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-second-instance-'));
    const content = crypto.randomBytes(6 * MiB);

    beforeAll(async () => {
      server = await startServer('postgres', {
        env: { ...s3.env('ywd-instances'), SECRET_KEY: 's'.repeat(40), FERRY_ZONE: '内网', FERRY_SECRET: 'cluster-ferry-secret-0123', FERRY_POLL_MS: '3600000' },
      });
      a = server.app;
      b = await server.restart({ DATA_DIR: otherDir });
      token = (await login(a)).token;
      const root = (await ok(a, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
      folderId = (await makeFolder(a, token, root, '共享资料')).id;
      await uploadFile(a, { token }, folderId, '数据.bin', content, 5 * MiB);
    });
    afterAll(async () => {
      await server?.close();
      fs.rmSync(otherDir, { recursive: true, force: true });
    });

    const statusOn = (app: App, id: string) => ok(app, 'GET', `/api/User/FileTransfer/DownloadTasks/${id}/Status`, { token });
    async function readyOn(app: App, id: string) {
      for (let i = 0; i < 1500; i++) {
        const s = await statusOn(app, id);
        if (s.state === 'ready' || s.state === 'failed') return s;
        await sleep(20);
      }
      throw new Error('the zip task did not finish');
    }
    async function zipMd5(res: { payload: Buffer }) {
      return (await readZip(res.payload)).find((e) => e.name === '共享资料/数据.bin')?.md5;
    }

    test('a task made on one instance is answered and served by the other, every poll', async () => {
      const { taskId } = await ok(a, 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: [folderId] });
      // status alternates between the instances, as a round-robin balancer sends it: never a 404
      for (let i = 0; i < 6; i++) expect((await call(i % 2 ? b : a, 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/Status`, { token })).status).toBe(200);
      const s = await readyOn(b, taskId);
      expect(s.state).toBe('ready');
      const file = await raw(b, 'GET', s.downloadUrl, { token });
      expect(file.status).toBe(200);
      expect(await zipMd5(file)).toBe(md5(content));
      // nothing of it on either instance's disk
      expect(filesUnder(path.join(otherDir, 'tmp'))).toEqual([]);
    });

    test('a build whose instance died is taken over by the other; a restart wipes nothing', async () => {
      const { taskId } = await ok(a, 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: [folderId] });
      // as if its instance had been killed mid-build: running, held by nobody alive, no heartbeat for a minute
      await a.db.updateTable('zip_tasks').set({ state: 'running', holder: 'killed-instance', heartbeat_at: Date.now() - 60_000, processed_bytes: 1234 }).where('id', '=', taskId).execute();
      await b.services.downloads.tasks.sweep();
      await b.services.downloads.tasks.pump();
      const s = await readyOn(b, taskId);
      expect(s.state).toBe('ready');
      expect(await zipMd5(await raw(a, 'GET', s.downloadUrl, { token }))).toBe(md5(content));
      const row = await a.db.selectFrom('zip_tasks').select(['attempts', 'holder']).where('id', '=', taskId).executeTakeFirstOrThrow();
      expect(row).toEqual({ attempts: 2, holder: null });

      // a third instance starting on the same database and bucket serves it as it is; it is
      // closed here, or its once-a-second pump would build the tasks later tests keep queued
      const c = await server.restart({ DATA_DIR: otherDir });
      try {
        expect((await raw(c, 'GET', s.downloadUrl, { token })).status).toBe(200);
      } finally {
        await c.close();
      }
    });

    test('a thumbnail made on one instance is served by the other without being made again', async () => {
      const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#33aa77' } }).jpeg().toBuffer();
      const root = (await ok(a, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
      const photo = await uploadFile(a, { token }, root, '两台实例.jpg', jpeg, 5 * MiB);
      const first = await raw(a, 'GET', `/api/User/Preview/${photo.id}/Thumbnail`, { token });
      expect(first.status).toBe(200);
      const second = await raw(b, 'GET', `/api/User/Preview/${photo.id}/Thumbnail`, { token });
      expect(second.status).toBe(200);
      expect(Buffer.compare(second.payload, first.payload)).toBe(0);
      const row = await a.db.selectFrom('preview_conversions').select(['status', 'attempts']).where('content_key', '=', `thumb:${md5(jpeg)}-${jpeg.length}`).executeTakeFirstOrThrow();
      expect({ status: row.status, attempts: Number(row.attempts) }).toEqual({ status: 'done', attempts: 1 });
      expect(filesUnder(path.join(otherDir, 'previews'))).toEqual([]);
    });

    /** a folder of its own for each upload test (the zip tests keep theirs small) */
    const uploadsFolder = async () => {
      const root = (await ok(a, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
      return (await makeFolder(a, token, root, `上传-${crypto.randomBytes(3).toString('hex')}`)).id as string;
    };

    test('a 20 MB upload whose chunks alternate between the instances, merged on both at once, is one file readable through either', async () => {
      const bytes = crypto.randomBytes(20 * MiB + 12345);
      const chunk = 5 * MiB;
      const folderId = await uploadsFolder();
      const created = await createTask(a, { token }, { folderId, fileName: '交替上传.bin', size: bytes.length });
      expect(created.status).toBe(200);
      const fileId = created.body.result.fileInfo.fileId as string;
      const total = Math.ceil(bytes.length / chunk);
      for (let n = 1; n <= total; n++) {
        const r = await sendChunk(n % 2 ? a : b, { token }, fileId, n, chunkOf(bytes, n, chunk), { chunkSize: chunk, totalSize: bytes.length, fileName: '交替上传.bin' });
        expect(r.status).toBe(200);
      }
      // nothing staged on either instance's disk: the chunks are objects
      expect(filesUnder(path.join(otherDir, 'uploads'))).toEqual([]);
      expect(filesUnder(path.join(server.config.dataDir, 'uploads'))).toEqual([]);
      // the same merge sent to both instances at once: both answer the one file
      const [m1, m2] = await Promise.all([merge(a, { token }, fileId, md5(bytes), '交替上传.bin'), merge(b, { token }, fileId, md5(bytes), '交替上传.bin')]);
      expect([m1.status, m2.status]).toEqual([200, 200]);
      expect(m1.body.result.id).toBe(m2.body.result.id);
      const rows = await a.db.selectFrom('blobs').select(['ref_count', 'storage_key']).where('md5', '=', md5(bytes)).execute();
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].ref_count)).toBe(1);
      // the chunk objects are gone once the file is made
      expect(await keys(a.services.objects, `uploads/${fileId}/`)).toEqual([]);
      const id = m1.body.result.id;
      const whole = await raw(b, 'GET', `/api/User/FileTransfer/Download/${id}`, { token });
      expect(md5(whole.payload)).toBe(md5(bytes));
      const part = await raw(a, 'GET', `/api/User/FileTransfer/Download/${id}`, { token, headers: { range: 'bytes=10485750-10485769' } });
      expect(part.status).toBe(206);
      expect(part.payload).toEqual(bytes.subarray(10485750, 10485770));
    });

    test('an upload goes on through the other instance after the first one stops, and a wrong whole-file MD5 keeps nothing', async () => {
      const bytes = crypto.randomBytes(12 * MiB);
      const chunk = 5 * MiB;
      const folderId = await uploadsFolder();
      const third = await server.restart({ DATA_DIR: otherDir });
      const created = await createTask(third, { token }, { folderId, fileName: '中断续传.bin', size: bytes.length });
      const fileId = created.body.result.fileInfo.fileId as string;
      expect((await sendChunk(third, { token }, fileId, 1, chunkOf(bytes, 1, chunk), { chunkSize: chunk, totalSize: bytes.length, fileName: '中断续传.bin' })).status).toBe(200);
      await third.close();
      for (const n of [2, 3]) expect((await sendChunk(b, { token }, fileId, n, chunkOf(bytes, n, chunk), { chunkSize: chunk, totalSize: bytes.length, fileName: '中断续传.bin' })).status).toBe(200);
      const done = await merge(b, { token }, fileId, md5(bytes), '中断续传.bin');
      expect(done.status).toBe(200);
      expect(md5((await raw(a, 'GET', `/api/User/FileTransfer/Download/${done.body.result.id}`, { token })).payload)).toBe(md5(bytes));

      const other = crypto.randomBytes(6 * MiB);
      const again = await createTask(a, { token }, { folderId, fileName: '校验失败.bin', size: other.length });
      const againId = again.body.result.fileInfo.fileId as string;
      for (const n of [1, 2]) expect((await sendChunk(n === 1 ? a : b, { token }, againId, n, chunkOf(other, n, chunk), { chunkSize: chunk, totalSize: other.length, fileName: '校验失败.bin' })).status).toBe(200);
      const refused = await merge(a, { token }, againId, md5(Buffer.from('另一个文件')), '校验失败.bin');
      expect(refused.status).toBe(422);
      expect(refused.body.message).toBe('文件校验失败（MD5 不一致），文件未保存，请重新上传');
      expect(await keys(a.services.objects, `uploads/${againId}/`)).toEqual([]);
      expect(await listNames(a, token, folderId)).not.toContain('校验失败.bin');
    });

    test('a ferry package packed by one instance for an HTTPS peer waits in the bucket, and the other instance pushes it', async () => {
      const outer = await startServer('sqlite', { env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: 'cluster-ferry-secret-0123', FERRY_POLL_MS: '3600000', FERRY_ACCEPT_FROM: '内网' } });
      try {
        await outer.app.listen({ port: 0, host: '127.0.0.1' });
        const outerUrl = `http://127.0.0.1:${(outer.app.server.address() as AddressInfo).port}`;
        const outerAdmin = (await login(outer.app)).token;
        const bob = await createUser(outer.app, outerAdmin, { userName: 'bob_cluster' });
        // instance a cannot reach the peer (nothing listens there); instance b can
        a.config.ferry.peers.push({ zone: '外网', channel: 'https', url: 'http://127.0.0.1:9' });
        b.config.ferry.peers.push({ zone: '外网', channel: 'https', url: outerUrl });
        const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...current } = await ok(a, 'GET', '/api/Ferry/Settings', { token });
        await ok(a, 'PUT', '/api/Ferry/Settings', { token, body: { ...current, typeCheck: false } });

        const bytes = crypto.randomBytes(3 * MiB + 5);
        const root = (await ok(a, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
        const file = await uploadFile(a, { token }, root, '摆渡-集群.bin', bytes, 5 * MiB);
        const created = await ok(a, 'POST', '/api/Ferry/FerryTasks', { token, body: { fileIds: [file.id], targetZone: '外网', recipients: ['bob_cluster'], reason: '集群摆渡' } });
        expect(created.status).toBe('pending');
        await ok(a, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token, body: {} });
        const sent = await ok(a, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token });
        expect(sent.status).toBe('transferring'); // packed, the push failed
        expect(filesUnder(path.join(server.config.dataDir, 'ferry'))).toEqual([]); // nothing on a's disk
        expect(await a.services.ferry.outbox.waiting('外网')).toHaveLength(1);
        expect(await b.services.ferry.outbox.waiting('外网')).toHaveLength(1);

        // instance a is gone for good; b's ferry round pushes what a packed
        await b.services.ferry.pushOutbox(b.services.ferry.httpsPeers()[0]);
        const pushed = await ok(b, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token });
        expect([pushed.status, pushed.statusReason]).toEqual(['delivered', '']);
        expect(await b.services.ferry.outbox.waiting('外网')).toEqual([]);
        expect(await keys(b.services.objects, 'ferry/outbox/')).toEqual([]);
        const bobToken = (await login(outer.app, bob.userName, bob.password)).token;
        const page = await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bobToken, query: { page: 1, pageSize: 10 } });
        expect(page.data[0].files).toEqual([{ index: 0, name: '摆渡-集群.bin', size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') }]);
        const got = await raw(outer.app, 'GET', `/api/Ferry/Inbox/${page.data[0].id}/Download?index=0`, { token: bobToken });
        expect(md5(got.payload)).toBe(md5(bytes));
      } finally {
        a.config.ferry.peers.length = 0;
        b.config.ferry.peers.length = 0;
        await outer.close();
      }
    });

    test('the limit of tasks per user counts every instance', async () => {
      const limit = a.services.downloads.tasks.options.maxPendingPerUser;
      const made: string[] = [];
      try {
        for (const t of [a, b]) t.services.downloads.tasks.options.maxRunning = 0; // nothing starts: every task stays queued
        for (let i = 0; i < limit; i++) made.push((await ok(i % 2 ? b : a, 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: [folderId] })).taskId);
        const over = await call(b, 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: [folderId] });
        expect(over.status).toBe(429);
        expect(over.body.message).toBe('正在打包的下载任务过多，请等待之前的任务完成后再试');
      } finally {
        for (const t of [a, b]) t.services.downloads.tasks.options.maxRunning = 2;
      }
      await a.services.downloads.tasks.pump();
      for (const id of made) expect((await readyOn(b, id)).state).toBe('ready');
    });
  });

  test('a wrong secret key stops the start with a Chinese reason naming the settings', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-s3-wrong-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Admin-pass-123', ...s3.env('ywd-wrong'), S3_SECRET_ACCESS_KEY: 'not-the-key' });
    await expect(buildApp(config).then((a) => a.ready())).rejects.toThrow(/^对象存储拒绝了访问（.+）：请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY$/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
