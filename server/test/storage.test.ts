// The object stores of 云文档, one contract for both: the local folder, and S3 as Ceph's RADOS
// Gateway from Debian's packages answers it (scripts/rgw.sh; never an npm imitation of S3). Put
// (a buffer, a stream of known size, a stream of unknown size), whole and ranged reads, stat,
// compose in the store, list, delete, the orphan sweep, a file for tools, and a wrong key refused
// with a Chinese reason.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config';
import { LocalStore, ObjectMissing, S3Store, StoreError, type ObjectStore } from '../src/modules/storage';
import { sweepOrphans } from '../src/modules/storage/sweep';
import { objectStoreAvailable, startObjectStore, type ObjectStoreServer } from './support/rgw';

jest.setTimeout(120_000);

const MiB = 1024 * 1024;
const rgw = objectStoreAvailable();
if (!rgw) console.warn('ceph-mon, ceph-osd or radosgw is missing (Debian packages): the S3 store tests are skipped');

async function read(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

/** A stream that hands out `bytes` in small pieces, as a request body does. */
function trickle(bytes: Buffer, piece = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += piece) yield bytes.subarray(i, i + piece);
    })(),
  );
}

function contract(name: string, make: () => Promise<ObjectStore>) {
  describe(name, () => {
    let store: ObjectStore;
    beforeAll(async () => {
      store = await make();
    });

    test('put and get: a buffer, a stream of known size and one of unknown size come back byte for byte', async () => {
      const small = crypto.randomBytes(1000);
      await store.put('t/small.bin', small);
      expect(await read(await store.get('t/small.bin'))).toEqual(small);

      const known = crypto.randomBytes(3 * MiB + 17);
      await store.put('t/known.bin', trickle(known), known.length);
      expect(md5(await read(await store.get('t/known.bin')))).toBe(md5(known));

      // larger than one part of a multipart upload, size not given
      const unknown = crypto.randomBytes(20 * MiB + 5);
      await store.put('t/unknown.bin', trickle(unknown, 256 * 1024));
      expect(md5(await read(await store.get('t/unknown.bin')))).toBe(md5(unknown));
      expect(await store.stat('t/unknown.bin')).toMatchObject({ key: 't/unknown.bin', size: unknown.length });

      // a put replaces
      await store.put('t/small.bin', Buffer.from('新的内容'));
      expect((await read(await store.get('t/small.bin'))).toString()).toBe('新的内容');
    });

    test('ranged reads: the first bytes, the middle, the last byte', async () => {
      const bytes = crypto.randomBytes(2 * MiB);
      await store.put('t/range.bin', bytes);
      expect(await read(await store.get('t/range.bin', { start: 0, end: 99 }))).toEqual(bytes.subarray(0, 100));
      expect(await read(await store.get('t/range.bin', { start: MiB - 3, end: MiB + 4 }))).toEqual(bytes.subarray(MiB - 3, MiB + 5));
      const last = bytes.length - 1;
      expect(await read(await store.get('t/range.bin', { start: last, end: last }))).toEqual(bytes.subarray(last));
    });

    test('a missing object: get throws ObjectMissing, stat answers null, delete is no error', async () => {
      await expect(store.get('t/none.bin')).rejects.toBeInstanceOf(ObjectMissing);
      expect(await store.stat('t/none.bin')).toBeNull();
      await store.delete(['t/none.bin']);
    });

    test('compose: 5 MiB parts and a short last one make one object in order; one part is copied as it is', async () => {
      const parts = [crypto.randomBytes(5 * MiB), crypto.randomBytes(5 * MiB), crypto.randomBytes(123_457)];
      for (const [i, p] of parts.entries()) await store.put(`t/chunks/${i}`, p);
      await store.compose('t/whole.bin', ['t/chunks/0', 't/chunks/1', 't/chunks/2']);
      const whole = Buffer.concat(parts);
      expect(md5(await read(await store.get('t/whole.bin')))).toBe(md5(whole));
      expect((await store.stat('t/whole.bin'))!.size).toBe(whole.length);
      // the parts stay until the caller removes them
      expect(await store.stat('t/chunks/0')).not.toBeNull();

      await store.compose('t/single.bin', ['t/chunks/2']);
      expect(await read(await store.get('t/single.bin'))).toEqual(parts[2]);
      // a missing part fails the compose and leaves no object behind
      await expect(store.compose('t/broken.bin', ['t/chunks/0', 't/chunks/none'])).rejects.toThrow();
      expect(await store.stat('t/broken.bin')).toBeNull();
    });

    test('list walks a prefix in key order; delete removes many at once', async () => {
      const keys = Array.from({ length: 30 }, (_, i) => `l/${String(i).padStart(3, '0')}`);
      for (const k of keys) await store.put(k, Buffer.from(k));
      await store.put('lother/x', Buffer.from('x'));
      const listed: string[] = [];
      for await (const o of store.list('l/')) listed.push(o.key);
      expect(listed).toEqual(keys);
      await store.delete(keys.slice(0, 20));
      const left: string[] = [];
      for await (const o of store.list('l/')) left.push(o.key);
      expect(left).toEqual(keys.slice(20));
    });

    test('the orphan sweep removes old objects no row claims, and keeps claimed and young ones', async () => {
      for (const k of ['s/a', 's/b', 's/c']) await store.put(k, Buffer.alloc(10, 1));
      const later = Date.now() + 2 * 24 * 3600 * 1000;
      const report = await sweepOrphans(store, { prefix: 's/', minAgeMs: 24 * 3600 * 1000, now: later, claimed: async (keys) => new Set(keys.filter((k) => k === 's/b')) });
      expect(report).toMatchObject({ seen: 3, removed: 2, removedBytes: 20, young: 0 });
      expect(report.samples.sort()).toEqual(['s/a', 's/c']);
      expect(await store.stat('s/a')).toBeNull();
      expect(await store.stat('s/b')).not.toBeNull();
      // written just now: younger than a day, kept whoever claims it
      const young = await sweepOrphans(store, { prefix: 's/', minAgeMs: 24 * 3600 * 1000, claimed: async () => new Set() });
      expect(young).toMatchObject({ seen: 1, removed: 0, young: 1 });
    });

    test('withFile hands a local file of the object to a tool', async () => {
      const bytes = crypto.randomBytes(70_000);
      await store.put('t/tool.docx', bytes);
      let seen = '';
      const size = await store.withFile('t/tool.docx', async (file) => {
        seen = file;
        expect(file.endsWith('.docx')).toBe(true);
        return fs.statSync(file).size;
      });
      expect(size).toBe(bytes.length);
      if (store.kind === 's3') expect(fs.existsSync(seen)).toBe(false); // the temporary copy is gone
      await expect(store.withFile('t/none.docx', async () => 1)).rejects.toBeInstanceOf(ObjectMissing);
    });
  });
}

contract('the local folder', async () => new LocalStore(fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-store-'))));

describe('a key outside the store', () => {
  test('is refused by the local store', async () => {
    const store = new LocalStore(fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-store-')));
    await expect(store.put('../escape', Buffer.from('x'))).rejects.toThrow(/invalid object key/);
    await expect(store.get('a/../../b')).rejects.toThrow(/invalid object key/);
  });
});

describe('storage settings', () => {
  const base = { DATA_DIR: os.tmpdir() };
  test('S3_BUCKET switches the contents to the store; missing keys or a half setting say what to set', () => {
    expect(loadConfig(base).storage).toEqual({ kind: 'local' });
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow('设置了 S3_ENDPOINT 但没有设置 S3_BUCKET：使用对象存储须同时设置存储桶');
    expect(() => loadConfig({ ...base, S3_BUCKET: 'files' })).toThrow('使用对象存储须设置 S3_ACCESS_KEY_ID 和 S3_SECRET_ACCESS_KEY');
    expect(() => loadConfig({ ...base, S3_BUCKET: 'Bad_Bucket', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' })).toThrow(/不是有效的存储桶名称/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://x', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' })).toThrow(/不是有效的 http\(s\) 地址/);
    expect(loadConfig({ ...base, S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:7480/', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b', S3_PREFIX: 'ywd' }).storage).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:7480',
      region: 'us-east-1',
      bucket: 'files',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      forcePathStyle: true,
      prefix: 'ywd/',
    });
  });
});

(rgw ? describe : describe.skip)('S3 (Ceph RADOS Gateway)', () => {
  let server: ObjectStoreServer;
  beforeAll(async () => {
    server = await startObjectStore();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const s3 = (bucket: string, overrides: Partial<ConstructorParameters<typeof S3Store>[0]> = {}) =>
    new S3Store({
      endpoint: server.endpoint,
      region: server.region,
      bucket,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      forcePathStyle: true,
      prefix: '',
      ...overrides,
    });

  contract('the store, with a key prefix', async () => {
    const store = s3('contract', { prefix: 'ywd/' });
    await store.ensureBucket();
    await store.ensureBucket(); // a second start finds it
    return store;
  });

  test('the prefix keeps each deployment to its own folder of the bucket', async () => {
    const a = s3('shared', { prefix: 'a/' });
    const b = s3('shared', { prefix: 'b/' });
    await a.ensureBucket();
    await a.put('k', Buffer.from('A'));
    await b.put('k', Buffer.from('B'));
    expect((await read(await a.get('k'))).toString()).toBe('A');
    const inB: string[] = [];
    for await (const o of b.list('')) inB.push(o.key);
    expect(inB).toEqual(['k']);
  });

  test('a wrong secret key is refused with a Chinese reason naming the settings', async () => {
    const wrong = s3('contract', { secretAccessKey: 'not-the-key' });
    const err = await wrong.ensureBucket().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toMatch(/^对象存储拒绝了访问（.+）：请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY$/);
    await expect(wrong.get('t/small.bin')).rejects.toThrow(/请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY/);
  });

  test('an endpoint nobody answers on is named', async () => {
    const nowhere = s3('contract', { endpoint: 'http://127.0.0.1:9' });
    await expect(nowhere.ensureBucket()).rejects.toThrow('无法连接对象存储（ECONNREFUSED）：请检查 S3_ENDPOINT');
  });
});
