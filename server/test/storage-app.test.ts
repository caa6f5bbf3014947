// 云文档 with its file contents in S3 (Ceph's RADOS Gateway from Debian's packages, started by
// scripts/rgw.sh), on SQLite and PostgreSQL: an upload in chunks lands in the bucket and not in
// the data folder; downloads whole and by range, a zip of a folder and a text preview read from
// the store; purging the file removes its object; the orphan sweep removes what no row claims;
// a wrong key stops the start with a Chinese reason.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { ObjectStore } from '../src/modules/storage';
import { call, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { makeFolder, raw } from './support/content';
import { objectStoreAvailable, startObjectStore, type ObjectStoreServer } from './support/rgw';
import { uploadFile } from './support/uploads';
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

    test('a content missing from the store answers the Chinese 500 before any byte, not a broken download', async () => {
      const content = crypto.randomBytes(1000);
      const file = await uploadFile(app(), { token }, rootId, '丢失.bin', content, 5 * MiB);
      const blob = await app().db.selectFrom('blobs').selectAll().where('md5', '=', md5(content)).executeTakeFirstOrThrow();
      await store().delete([`blobs/${blob.storage_key}`]);
      const res = await call(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 50001, message: '文件内容已丢失，请联系管理员', result: null });
    });
  });

  test('a wrong secret key stops the start with a Chinese reason naming the settings', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-s3-wrong-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Admin-pass-123', ...s3.env('ywd-wrong'), S3_SECRET_ACCESS_KEY: 'not-the-key' });
    await expect(buildApp(config).then((a) => a.ready())).rejects.toThrow(/^对象存储拒绝了访问（.+）：请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY$/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
