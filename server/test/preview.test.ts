// 云文档 preview (api-contract.md, "Preview"): Actions per type; CreateComponentData per level
// and per path (own file, version, internal share, external share, no right); the bytes of
// pictures and media with Range; text in UTF-8 and GB18030, capped; office documents through
// LibreOffice (a real conversion, the cache by content, a corrupt document, the timeout and a
// missing LibreOffice), and the watermark setting.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../src/config';
import { makeFile, raw, setContent } from './support/content';
import { docx, wordDocument } from './support/documents';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const GBK_TEXT = Buffer.from([0xc4, 0xea, 0xb6, 0xc8, 0xd4, 0xa4, 0xcb, 0xe3]); // 年度预算

describe.each(databaseKinds())('preview (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let adminToken: string;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ owner, outsider, editor, viewer, adminToken, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const app = () => server.app;
  const create = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', { token, body, headers });
  const payload = async (token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await create(token as string, body, headers);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.result;
  };
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };
  const setPolicies = (fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) =>
    ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId, policies } });

  test('Actions says which types have a viewer', async () => {
    const actions = async (extension: string) => (await ok(app(), 'GET', '/api/User/Files/Actions', { token: viewer.token, query: { extension } })).previewable;
    const answers = Object.fromEntries(await Promise.all(['jpg', 'PNG', 'svg', 'pdf', 'mp4', 'webm', 'mp3', 'flac', 'txt', 'py', 'json', 'docx', 'xls', 'pptx', 'odt', 'rtf', 'exe', 'zip', 'ofd', ''].map(async (e) => [e, await actions(e)])));
    expect(answers).toEqual({
      jpg: true, PNG: true, svg: true, pdf: true, mp4: true, webm: true, mp3: true, flac: true, txt: true, py: true, json: true,
      docx: true, xls: true, pptx: true, odt: true, rtf: true, exe: false, zip: false, ofd: false, '': false,
    });
  });

  test('own files: the viewer per type, the URLs it loads, download offered, no watermark on personal files', async () => {
    const img = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '照片.png', PNG);
    const got = await payload(owner.token, { fileId: img.id });
    expect(got).toEqual({
      fileId: img.id,
      source: 'image',
      data: expect.objectContaining({
        name: '照片.png', extension: 'png', size: PNG.length, versionId: null, shareId: null,
        url: `/api/User/Preview/${img.id}/Content`, conversionUrl: null, downloadUrl: `/api/User/FileTransfer/Download/${img.id}`, watermark: null,
      }),
      permissionVo: { level: 4, download: true },
      PreviewActions: { previewable: true },
    });
    const bytes = await raw(app(), 'GET', got.data.url, { token: owner.token });
    expect(bytes.status).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.headers['content-disposition']).toMatch(/^inline/);
    expect(Buffer.compare(bytes.payload, PNG)).toBe(0);
    // the session cookie is enough for <img src>
    const byCookie = await raw(app(), 'GET', got.data.url, { cookie: owner.jwtId });
    expect(byCookie.status).toBe(200);

    const video = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '会议录像.mp4', Buffer.alloc(5000, 7));
    const v = await payload(owner.token, { fileId: video.id });
    expect(v.source).toBe('video');
    // seeking: a byte range before the whole file has come
    const part = await raw(app(), 'GET', v.data.url, { token: owner.token, headers: { range: 'bytes=1000-1999' } });
    expect({ status: part.status, range: part.headers['content-range'], length: part.payload.length, type: part.headers['content-type'] }).toEqual({
      status: 206, range: 'bytes 1000-1999/5000', length: 1000, type: 'video/mp4',
    });
    expect((await payload(owner.token, { fileId: (await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '歌.mp3', 'ID3')).id })).source).toBe('audio');
    expect((await payload(owner.token, { fileId: (await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '手册.pdf', '%PDF-1.4')).id })).source).toBe('pdf');

    // an SVG is shown as a picture and can run nothing
    const svg = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '图.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const s = await raw(app(), 'GET', `/api/User/Preview/${svg.id}/Content`, { token: owner.token });
    expect(s.headers['content-security-policy']).toMatch(/sandbox/);
    expect(s.headers['content-security-policy']).toMatch(/default-src 'none'/);

    expectError(await create(owner.token, { fileId: (await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '安装包.exe', 'MZ')).id }), 400, 40001);
    expectError(await create(owner.token, { fileId: ownerRoot.id }), 400, 40001);
    expectError(await create(owner.token, { fileId: '999999999' }), 404, 404);
    // text and office bytes never go out through the content call
    const txt = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '说明.txt', '你好');
    expect((await raw(app(), 'GET', `/api/User/Preview/${txt.id}/Content`, { token: owner.token })).status).toBe(400);
  });

  test('pictures: a thumbnail made once per content, a very large picture scaled, a broken one refused', async () => {
    const photo = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '合影.jpg', await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } }).jpeg().toBuffer());
    const p = await payload(owner.token, { fileId: photo.id });
    expect(p.data).toMatchObject({ url: `/api/User/Preview/${photo.id}/Content`, thumbnailUrl: `/api/User/Preview/${photo.id}/Thumbnail` });
    const thumb = await raw(app(), 'GET', p.data.thumbnailUrl, { token: owner.token });
    expect({ status: thumb.status, type: thumb.headers['content-type'] }).toEqual({ status: 200, type: 'image/webp' });
    expect(await sharp(thumb.payload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 171 });
    // the same content in another file: the same thumbnail, made once
    const again = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '合影（副本）.jpg', await fs.promises.readFile(app().services.folders.blobs.pathOf(
      (await app().db.selectFrom('blobs').select('storage_key').where('md5', '=', (await app().db.selectFrom('file_versions').select('md5').where('id', '=', Number(photo.versionId)).executeTakeFirstOrThrow()).md5!).executeTakeFirstOrThrow()).storage_key,
    )));
    expect((await raw(app(), 'GET', `/api/User/Preview/${again.id}/Thumbnail`, { token: owner.token })).status).toBe(200);
    expect(await app().db.selectFrom('preview_conversions').select(['kind', 'status']).where('kind', '=', 'thumb').where('blob_id', 'in', app().db.selectFrom('file_versions').select('blob_id').where('id', '=', Number(photo.versionId))).execute()).toEqual([{ kind: 'thumb', status: 'done' }]);

    // more pixels than 4096 × 4096: shown scaled to 4096 on its longest side
    const noise = crypto.randomBytes(4200 * 4100 * 3);
    const huge = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '全景.jpg', await sharp(noise, { raw: { width: 4200, height: 4100, channels: 3 } }).jpeg({ quality: 50 }).toBuffer());
    const big = await payload(owner.token, { fileId: huge.id });
    expect(big.data.url).toBe(`/api/User/Preview/${huge.id}/Image`);
    const scaled = await raw(app(), 'GET', big.data.url, { token: owner.token });
    expect(scaled.status).toBe(200);
    expect(await sharp(scaled.payload).metadata()).toMatchObject({ format: 'webp', width: 4096 });

    const broken = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '坏图.png', Buffer.from('not a picture at all'));
    const bad = await call(app(), 'GET', `/api/User/Preview/${broken.id}/Thumbnail`, { token: owner.token });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 42201 });
    expect(bad.body.message).toMatch(HAN);
    // a type without thumbnails
    expect((await call(app(), 'GET', `/api/User/Preview/${(await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '说明2.txt', 'x')).id}/Thumbnail`, { token: owner.token })).status).toBe(400);
  }, 60_000);

  test('the sweep removes what was made of contents no file holds any more, and nothing else', async () => {
    const picture = async (seed: number) =>
      sharp(crypto.createHash('sha256').update(`sweep-${seed}-${kind}`).digest().subarray(0, 27), { raw: { width: 3, height: 3, channels: 3 } })
        .resize(300, 200)
        .png()
        .toBuffer();
    const gone = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '将被清理.png', await picture(1));
    const kept = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '保留.png', await picture(2));
    for (const f of [gone, kept]) expect((await raw(app(), 'GET', `/api/User/Preview/${f.id}/Thumbnail`, { token: owner.token })).status).toBe(200);
    const keyOf = async (f: { versionId: string | null }) => {
      const v = await app().db.selectFrom('file_versions').select(['md5', 'size']).where('id', '=', Number(f.versionId)).executeTakeFirstOrThrow();
      return `thumb:${v.md5}-${Number(v.size)}`;
    };
    // the keys are read now: purging the file removes its versions
    const keys = new Map<typeof gone, string>();
    for (const f of [gone, kept]) keys.set(f, await keyOf(f));
    const rowOf = (f: typeof gone) =>
      app().db.selectFrom('preview_conversions').select(['status', 'output']).where('content_key', '=', keys.get(f)!).executeTakeFirst();
    const goneRow = (await rowOf(gone))!;
    // the object key, which with the local store is the file under $DATA_DIR
    expect(goneRow.output).toMatch(/^previews\/thumb\/[0-9a-f]{32}-\d+\.webp$/);
    const goneFile = path.join(server.config.dataDir, goneRow.output);
    expect(fs.existsSync(goneFile)).toBe(true);
    const conversions = app().services.preview.conversions;

    // in the recycle bin the content is still held: nothing goes
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [gone.id] });
    await conversions.sweep();
    expect(await rowOf(gone)).toMatchObject({ status: 'done' });
    // purged: its thumbnail goes (row and file); the other file's stays; small batches walk every row
    expect((await call(app(), 'DELETE', '/api/User/Recycle', { token: owner.token, body: [gone.id] })).body.result).toEqual({ purged: 1 });
    expect(await conversions.sweep(2)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(gone)).toBeUndefined();
    expect(fs.existsSync(goneFile)).toBe(false);
    const keptRow = (await rowOf(kept))!;
    expect(keptRow.status).toBe('done');
    expect(await app().services.objects.stat(keptRow.output)).not.toBeNull();

    // the same content uploaded again: its thumbnail is made again
    const back = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '又传了一次.png', await picture(1));
    expect((await raw(app(), 'GET', `/api/User/Preview/${back.id}/Thumbnail`, { token: owner.token })).status).toBe(200);
    expect(await keyOf(back)).toBe(keys.get(gone));
    expect(await rowOf(gone)).toMatchObject({ status: 'done' });
  }, 60_000);

  test('outputs of earlier releases (a path under $DATA_DIR/previews in the row) are served as they are; a lost one is made again', async () => {
    const picture = await sharp({ create: { width: 500, height: 300, channels: 3, background: kind === 'sqlite' ? '#aa3311' : '#11aa33' } }).png().toBuffer();
    const f = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '旧版缩略图.png', picture);
    const url = `/api/User/Preview/${f.id}/Thumbnail`;
    const first = await raw(app(), 'GET', url, { token: owner.token });
    expect(first.status).toBe(200);
    const v = await app().db.selectFrom('file_versions').select(['md5', 'size']).where('id', '=', Number(f.versionId)).executeTakeFirstOrThrow();
    const key = `thumb:${v.md5}-${Number(v.size)}`;
    const row = () => app().db.selectFrom('preview_conversions').select(['status', 'output', 'attempts', 'finished_at']).where('content_key', '=', key).executeTakeFirstOrThrow();
    const made = await row();
    // as an earlier release wrote it: relative to $DATA_DIR/previews
    await app().db.updateTable('preview_conversions').set({ output: made.output.replace(/^previews\//, '') }).where('content_key', '=', key).execute();
    const old = await raw(app(), 'GET', url, { token: owner.token });
    expect(old.status).toBe(200);
    expect(Buffer.compare(old.payload, first.payload)).toBe(0);
    expect(await row()).toMatchObject({ status: 'done', attempts: 1, finished_at: made.finished_at });

    // the object is gone: the row fails and the next view makes it again
    await app().services.objects.delete([made.output]);
    expect((await raw(app(), 'GET', url, { token: owner.token })).status).toBe(200);
    expect(await row()).toMatchObject({ status: 'done', output: made.output });
    expect(await app().services.objects.stat(made.output)).not.toBeNull();
  }, 60_000);

  test('nobody else, and no one without a session, previews a personal file', async () => {
    const mine = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '私人照片.png', PNG);
    expectError(await create(outsider.token, { fileId: mine.id }), 404, 404);
    expect((await raw(app(), 'GET', `/api/User/Preview/${mine.id}/Content`, { token: outsider.token })).status).toBe(404);
    expectError(await call(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', { body: { fileId: mine.id } }), 401, 401);
    expect((await raw(app(), 'GET', `/api/User/Preview/${mine.id}/Content`)).status).toBe(401);
  });

  test('versions: an older version previews its own content', async () => {
    const file = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '版本说明.txt', '第一版内容');
    await setContent(app(), file.id, Buffer.from('第二版内容'), owner.userId);
    const old = await payload(owner.token, { fileId: file.id, versionId: file.versionId });
    expect(old.data).toMatchObject({ versionId: file.versionId, url: `/api/User/Preview/${file.id}/Text?versionId=${file.versionId}` });
    expect((await ok(app(), 'GET', old.data.url, { token: owner.token })).text).toBe('第一版内容');
    expect((await ok(app(), 'GET', (await payload(owner.token, { fileId: file.id })).data.url, { token: owner.token })).text).toBe('第二版内容');
    expect(old.data.downloadUrl).toBe(`/api/User/FileTransfer/Download/${file.id}?versionId=${file.versionId}`);
    expectError(await create(owner.token, { fileId: file.id, versionId: '999999999' }), 404, 404);
  });

  test('text: UTF-8, GB18030, the 2 MB cap, and a binary file that calls itself text', async () => {
    const utf = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, 'main.py', 'def 结算():\n    return 1\n');
    expect(await ok(app(), 'GET', `/api/User/Preview/${utf.id}/Text`, { token: owner.token })).toEqual({
      text: 'def 结算():\n    return 1\n', encoding: 'utf-8', size: Buffer.byteLength('def 结算():\n    return 1\n'), truncated: false,
    });
    const gbk = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '旧系统.txt', Buffer.concat([Buffer.from('2025 '), GBK_TEXT]));
    expect(await ok(app(), 'GET', `/api/User/Preview/${gbk.id}/Text`, { token: owner.token })).toMatchObject({ text: '2025 年度预算', encoding: 'gb18030' });
    const big = Buffer.alloc(2 * 1024 * 1024 + 10, '中');
    const large = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '大日志.log', big);
    const shown = await ok(app(), 'GET', `/api/User/Preview/${large.id}/Text`, { token: owner.token });
    expect({ size: shown.size, truncated: shown.truncated, encoding: shown.encoding }).toEqual({ size: big.length, truncated: true, encoding: 'utf-8' });
    expect(Buffer.byteLength(shown.text)).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(shown.text.startsWith('中中中')).toBe(true);
    const binary = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '伪装.txt', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
    expectError(await call(app(), 'GET', `/api/User/Preview/${binary.id}/Text`, { token: owner.token }), 400, 40001);
  });

  test('enterprise files: levels decide the download, the watermark names the viewer, the setting turns it off', async () => {
    const dir = await ok(app(), 'POST', '/api/User/Files/CreateFile', { token: editor.token, body: { parentId: publicRoot.id, name: '预览权限', type: 'folder' } });
    const img = await makeFile(app(), editor.token, editor.userId, dir.id, '平面图.png', PNG);
    const doc = await makeFile(app(), editor.token, editor.userId, dir.id, '制度.docx', await docx('管理制度'));
    const read = await payload(viewer.token, { fileId: img.id });
    expect(read.permissionVo).toEqual({ level: 2, download: true });
    expect(read.data.watermark).toMatch(new RegExp(`^读者（${viewer.userName}） \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));

    // preview only (level 1): no download anywhere, the picture still shows
    await setPolicies(dir.id, [{ subjectType: 1, subjectId: viewer.userId, level: 1 }]);
    const only = await payload(viewer.token, { fileId: img.id });
    expect(only.permissionVo).toEqual({ level: 1, download: false });
    expect(only.data.downloadUrl).toBeNull();
    expect((await raw(app(), 'GET', only.data.url, { token: viewer.token })).status).toBe(200);
    expect((await raw(app(), 'GET', `/api/User/FileTransfer/Download/${img.id}`, { token: viewer.token })).status).toBe(403);
    // an office document at level 1: only its PDF, never its own bytes
    if (app().services.preview.conversions.makers.pdf.available) {
      const office = await payload(viewer.token, { fileId: doc.id });
      expect(office.data).toMatchObject({ url: `/api/User/Preview/${doc.id}/Pdf`, conversionUrl: `/api/User/Preview/${doc.id}/Conversion`, downloadUrl: null });
    }
    expect((await raw(app(), 'GET', `/api/User/Preview/${doc.id}/Content`, { token: viewer.token })).status).toBe(400);
    // no right at all
    await setPolicies(dir.id, [{ subjectType: 1, subjectId: viewer.userId, level: 0 }]);
    expectError(await create(viewer.token, { fileId: img.id }), 404, 404);
    await setPolicies(dir.id, []);

    const put = (watermark: boolean) => call(app(), 'PUT', '/api/Admin/PreviewPolicy', { token: adminToken, body: { watermark } });
    expectError(await put(false).then(async () => call(app(), 'PUT', '/api/Admin/PreviewPolicy', { token: viewer.token, body: { watermark: false } })), 403, 40301);
    expect((await ok(app(), 'GET', '/api/Admin/PreviewPolicy', { token: adminToken })).watermark).toBe(false);
    expect((await payload(viewer.token, { fileId: img.id })).data.watermark).toBeNull();
    expect((await put(true)).body.result).toEqual({ watermark: true });
    expect((await payload(viewer.token, { fileId: img.id })).data.watermark).toMatch(/^读者/);
  });

  test('through shares: an internal recipient, an external visitor with the key, nobody else', async () => {
    const dir = await ok(app(), 'POST', '/api/User/Files/CreateFile', { token: owner.token, body: { parentId: ownerRoot.id, name: '分享预览', type: 'folder' } });
    const img = await makeFile(app(), owner.token, owner.userId, dir.id, '海报.png', PNG);
    const note = await makeFile(app(), owner.token, owner.userId, dir.id, '备注.md', '# 标题');
    const elsewhere = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '不在分享中.png', PNG);

    const inner = (await ok(app(), 'POST', '/api/User/Shares', {
      token: owner.token,
      body: { fileIds: [dir.id], shareType: 1, level: 1, expireAt: null, targets: [{ type: 1, id: viewer.userId }], downloadLimit: null },
    })) as { shareId: string };
    const seen = await payload(viewer.token, { fileId: img.id, shareId: inner.shareId });
    expect(seen.data).toMatchObject({ shareId: inner.shareId, url: `/api/User/Preview/${img.id}/Content?shareId=${inner.shareId}`, downloadUrl: null });
    expect(seen.permissionVo).toEqual({ level: 1, download: false });
    expect((await raw(app(), 'GET', seen.data.url, { token: viewer.token })).status).toBe(200);
    expect((await ok(app(), 'GET', `/api/User/Preview/${note.id}/Text?shareId=${inner.shareId}`, { token: viewer.token })).text).toBe('# 标题');
    // not a recipient; a file outside the share; a version through a share
    expectError(await create(outsider.token, { fileId: img.id, shareId: inner.shareId }), 401, 401);
    expectError(await create(viewer.token, { fileId: elsewhere.id, shareId: inner.shareId }), 404, 404);
    expectError(await create(viewer.token, { fileId: img.id, shareId: inner.shareId, versionId: img.versionId }), 404, 404);

    const link = (await ok(app(), 'POST', '/api/User/Shares', {
      token: owner.token,
      body: { fileIds: [dir.id], shareType: 2, level: 2, expireAt: null, accessKey: '', downloadLimit: null },
    })) as { shareId: string; accessKey: string };
    const visitor = await call(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', {
      body: { fileId: img.id, shareId: link.shareId },
      headers: { accessKey: link.accessKey },
    });
    expect(visitor.status).toBe(200);
    expect(visitor.body.result.data).toMatchObject({
      shareId: link.shareId,
      downloadUrl: `/api/User/FileTransfer/ExternalDownload/${img.id}?urlKey=${link.shareId}`,
      watermark: null,
    });
    const withKey = `${visitor.body.result.data.url}&accessKey=${link.accessKey}`;
    expect((await raw(app(), 'GET', withKey)).status).toBe(200);
    expect((await raw(app(), 'GET', visitor.body.result.data.url)).status).toBe(403);
    expectError(await call(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', { body: { fileId: img.id, shareId: link.shareId }, headers: { accessKey: 'wrong1' } }), 403, 40302);
    expectError(await call(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', { body: { fileId: elsewhere.id, shareId: link.shareId }, headers: { accessKey: link.accessKey } }), 404, 404);
    // a cancelled link previews nothing
    await ok(app(), 'DELETE', '/api/User/Shares', { token: owner.token, body: [link.shareId] });
    expect((await raw(app(), 'GET', withKey)).status).toBe(401);
  });
});

// LibreOffice is a system part (README, 系统组件): .ci/run installs it; without it the suite shows as skipped
const withLibreOffice = loadConfig({ DATA_DIR: os.tmpdir() }).preview.soffice ? describe : describe.skip;

withLibreOffice('office documents through LibreOffice', () => {
  let server: TestServer;
  let owner: TestUser;
  let ownerRoot: any;

  beforeAll(async () => {
    server = await startServer('sqlite');
    ({ owner, ownerRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const conversion = async (fileId: string) => ok(server.app, 'GET', `/api/User/Preview/${fileId}/Conversion`, { token: owner.token });
  const until = async (fileId: string) => {
    for (let i = 0; i < 60; i++) {
      const state = await conversion(fileId);
      if (state.status !== 'converting') return state;
    }
    throw new Error('the conversion did not end');
  };

  test('a docx becomes a PDF once; the same content elsewhere gets the same PDF at once', async () => {
    const bytes = await wordDocument(['第三季度经营分析报告', '', '第二页：结论']);
    const a = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '报告.docx', bytes);
    const p = await ok(server.app, 'POST', '/api/User/FileTransfer/CreateComponentData', { token: owner.token, body: { fileId: a.id } });
    expect(p).toMatchObject({ source: 'office', data: { url: `/api/User/Preview/${a.id}/Pdf`, conversionUrl: `/api/User/Preview/${a.id}/Conversion` } });
    expect(await until(a.id)).toEqual({ status: 'ready', message: '' });
    const pdf = await raw(server.app, 'GET', p.data.url, { token: owner.token });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.payload.subarray(0, 5).toString()).toBe('%PDF-');

    const b = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '报告（副本）.docx', bytes);
    expect(await conversion(b.id)).toEqual({ status: 'ready', message: '' });
    const rows = await server.app.db.selectFrom('preview_conversions').select(['status', 'attempts']).execute();
    expect(rows).toEqual([{ status: 'done', attempts: 1 }]);
  }, 120_000);

  test('a corrupt document fails with a reason, and is not tried again at once', async () => {
    const bad = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '损坏.docx', Buffer.from('PK\u0003\u0004 this is not a document'));
    const state = await until(bad.id);
    expect(state.status).toBe('failed');
    expect(state.message).toMatch(HAN);
    expect((await raw(server.app, 'GET', `/api/User/Preview/${bad.id}/Pdf`, { token: owner.token })).status).toBe(422);
    expect((await conversion(bad.id)).status).toBe('failed');
  }, 120_000);
});

describe('the conversion pool without a real LibreOffice', () => {
  const fake = (body: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-fake-soffice-'));
    const file = path.join(dir, 'soffice');
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  };

  test('a missing LibreOffice: office documents say so clearly, everything else previews', async () => {
    const server = await startServer('sqlite', { env: { PREVIEW_SOFFICE: 'off' } });
    try {
      const { owner, ownerRoot } = await roleCast(server.app);
      const doc = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '方案.pptx', 'PK');
      const res = await call(server.app, 'POST', '/api/User/FileTransfer/CreateComponentData', { token: owner.token, body: { fileId: doc.id } });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 50301 });
      expect(res.body.message).toMatch(/LibreOffice/);
      const img = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '图.png', PNG);
      expect((await call(server.app, 'POST', '/api/User/FileTransfer/CreateComponentData', { token: owner.token, body: { fileId: img.id } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('a conversion that hangs is stopped at the timeout, its whole process group killed', async () => {
    const marker = path.join(os.tmpdir(), `yunwendang-hang-${process.pid}-${Date.now()}`);
    // a child of the converter that would outlive it if only the converter were killed
    const script = fake(`(sleep 30; touch ${marker}) &\nsleep 30`);
    const server = await startServer('sqlite', { env: { PREVIEW_SOFFICE: script }, tweak: (c) => (c.preview.timeoutMs = 500) });
    try {
      const { owner, ownerRoot } = await roleCast(server.app);
      const doc = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '卡住.docx', 'PK stuck');
      const started = Date.now();
      let state: any;
      for (let i = 0; i < 20; i++) {
        state = await ok(server.app, 'GET', `/api/User/Preview/${doc.id}/Conversion`, { token: owner.token });
        if (state.status !== 'converting') break;
      }
      expect(state.status).toBe('failed');
      expect(state.message).toMatch(/超时/);
      expect(Date.now() - started).toBeLessThan(15_000);
      const ps = await import('node:child_process').then((cp) => cp.execSync(`ps -eo args`).toString());
      expect(ps).not.toContain(script);
    } finally {
      await server.close();
      fs.rmSync(marker, { force: true });
    }
  }, 60_000);

  test('at most PREVIEW_WORKERS conversions run at a time, and one per content', async () => {
    const log = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-pool-'));
    // records its start and end, then writes a PDF where LibreOffice would (--outdir <dir> <input>)
    const script = fake(
      `echo start $(date +%s%N) >> ${log}/runs\nsleep 0.4\nout=""; prev=""\nfor a in "$@"; do if [ "$prev" = "--outdir" ]; then out="$a"; fi; prev="$a"; done\n` +
        `mkdir -p "$out"; printf '%%PDF-1.4 fake' > "$out/document.pdf"\necho end $(date +%s%N) >> ${log}/runs`,
    );
    const server = await startServer('sqlite', { env: { PREVIEW_SOFFICE: script, PREVIEW_WORKERS: '1' } });
    try {
      const { owner, ownerRoot } = await roleCast(server.app);
      const docs = [];
      for (let i = 0; i < 3; i++) docs.push(await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, `文档${i}.docx`, `PK content ${i}`));
      // the same content twice more: one conversion for it
      const again = await makeFile(server.app, owner.token, owner.userId, ownerRoot.id, '文档0副本.docx', 'PK content 0');
      await Promise.all([...docs, again, docs[0]].map((d) => ok(server.app, 'POST', '/api/User/FileTransfer/CreateComponentData', { token: owner.token, body: { fileId: d.id } })));
      for (const d of [...docs, again]) {
        let state: any;
        for (let i = 0; i < 30 && state?.status !== 'ready'; i++) state = await ok(server.app, 'GET', `/api/User/Preview/${d.id}/Conversion`, { token: owner.token });
        expect(state.status).toBe('ready');
      }
      const events = fs.readFileSync(path.join(log, 'runs'), 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
      expect(events).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
    } finally {
      await server.close();
      fs.rmSync(log, { recursive: true, force: true });
    }
  }, 60_000);
});
