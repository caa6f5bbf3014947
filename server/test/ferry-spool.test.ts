// The ferry's spool channel on real directories: a package written atomically arrives
// byte-exact; a tampered file, a tampered manifest, a wrong secret, a package for another zone
// and a replayed package are quarantined with their reason; a half-written package is left
// alone; a file changed after its approval never reaches the spool.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChangedAfterApproval, QUARANTINE_DIR, receivePackages, writePackage, type PackSource, type ReceivedPackage } from '../src/modules/ferry/spool';

const SECRET = 'zone-shared-secret-for-tests';
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('ferry spool channel', () => {
  let work: string;
  let spool: string;
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-spool-'));
    spool = path.join(work, 'spool');
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  function source(name: string, bytes: Buffer): PackSource {
    const file = path.join(work, `src-${crypto.randomUUID()}`);
    fs.writeFileSync(file, bytes);
    return { file, name, size: bytes.length, sha256: sha256(bytes) };
  }
  const meta = (over: Record<string, unknown> = {}) => ({
    taskId: 'T1',
    fromZone: '内网',
    toZone: '外网',
    recipients: ['zhangsan'],
    reason: '发送投标文件',
    createdAt: Date.now(),
    expiresAt: Date.now() + 7 * 86400_000,
    ...over,
  });

  /** Receives into memory: what `accept` saw, file bytes included. */
  async function receive(seenIds: Set<string> = new Set(), zone = '外网', secret = SECRET) {
    const got: Array<{ pkg: ReceivedPackage; bytes: Buffer[] }> = [];
    const result = await receivePackages(spool, secret, zone, async (id) => seenIds.has(id), async (pkg) => {
      got.push({ pkg, bytes: pkg.files.map((f) => fs.readFileSync(f)) });
      seenIds.add(pkg.manifest.packageId);
    });
    return { ...result, got };
  }

  test('a package arrives byte-exact with its manifest, leaves the spool once taken, and is never taken twice', async () => {
    const big = crypto.randomBytes(3 * 1024 * 1024 + 11);
    const files = [source('标书.pdf', big), source('空文件.txt', Buffer.alloc(0)), source('说明.txt', Buffer.from('附件说明'))];
    const { packageId } = await writePackage(spool, meta(), files, SECRET);
    expect(fs.readdirSync(spool)).toEqual([`${packageId}.pkg`]);

    const seen = new Set<string>();
    const first = await receive(seen);
    expect(first.accepted).toEqual([packageId]);
    expect(first.rejected).toEqual([]);
    expect(first.got[0].pkg.manifest).toMatchObject({ taskId: 'T1', fromZone: '内网', toZone: '外网', recipients: ['zhangsan'], reason: '发送投标文件' });
    expect(first.got[0].pkg.manifest.files.map((f) => [f.name, f.size])).toEqual([['标书.pdf', big.length], ['空文件.txt', 0], ['说明.txt', 12]]);
    expect(first.got[0].bytes[0].equals(big)).toBe(true);
    expect(first.got[0].bytes[1].length).toBe(0);
    expect(first.got[0].bytes[2].toString()).toBe('附件说明');
    expect(fs.readdirSync(spool)).toEqual([]);

    // the same package carried again (a replay): refused and quarantined
    const again = await writePackage(spool, { ...meta(), packageId }, files, SECRET);
    expect(again.packageId).toBe(packageId);
    const second = await receive(seen);
    expect(second.accepted).toEqual([]);
    expect(second.rejected).toMatchObject([{ packageId, reason: 'replayed' }]);
    expect(fs.readFileSync(path.join(second.rejected[0].quarantined, 'REJECTED.txt'), 'utf8')).toMatch(/重放/);
    expect(second.got).toEqual([]);
  });

  test('tampering is caught: a changed file, a changed manifest, the wrong secret, another zone; each quarantined with its reason', async () => {
    const content = Buffer.from('机密图纸 v1');
    const write = async () => (await writePackage(spool, meta(), [source('图纸.dwg', content)], SECRET)).dir;

    const changedFile = await write();
    fs.writeFileSync(path.join(changedFile, 'files', '0'), Buffer.from('机密图纸 v2'));
    const grownFile = await write();
    fs.appendFileSync(path.join(grownFile, 'files', '0'), 'x');
    const missingFile = await write();
    fs.rmSync(path.join(missingFile, 'files', '0'));
    const changedManifest = await write();
    const m = JSON.parse(fs.readFileSync(path.join(changedManifest, 'manifest.json'), 'utf8'));
    m.recipients = ['attacker'];
    fs.writeFileSync(path.join(changedManifest, 'manifest.json'), JSON.stringify(m));
    const { dir: otherZone } = await writePackage(spool, meta({ toZone: '研发网' }), [source('a.txt', content)], SECRET);

    const result = await receive();
    expect(result.accepted).toEqual([]);
    const byDir = new Map(result.rejected.map((r) => [path.join(spool, r.name), r.reason]));
    expect(byDir.get(changedFile)).toBe('hashMismatch');
    expect(byDir.get(grownFile)).toBe('sizeMismatch');
    expect(byDir.get(missingFile)).toBe('missingFile');
    expect(byDir.get(changedManifest)).toBe('badSignature');
    expect(byDir.get(otherZone)).toBe('wrongZone');
    expect(fs.readdirSync(spool)).toEqual([QUARANTINE_DIR]);
    expect(fs.readdirSync(path.join(spool, QUARANTINE_DIR))).toHaveLength(5);

    await writePackage(spool, meta(), [source('b.txt', content)], 'another-secret');
    expect((await receive()).rejected.map((r) => r.reason)).toEqual(['badSignature']);
  });

  test('a half-written package is left alone until it is complete; a file changed after approval never reaches the spool', async () => {
    fs.mkdirSync(path.join(spool, '.incoming-half', 'files'), { recursive: true });
    fs.writeFileSync(path.join(spool, '.incoming-half', 'files', '0'), 'partial');
    const result = await receive();
    expect(result).toMatchObject({ accepted: [], rejected: [] });
    expect(fs.existsSync(path.join(spool, '.incoming-half'))).toBe(true);

    const approved = source('合同.docx', Buffer.from('已审批的内容'));
    fs.writeFileSync(approved.file!, '审批后改过的内容');
    await expect(writePackage(spool, meta(), [approved], SECRET)).rejects.toBeInstanceOf(ChangedAfterApproval);
    await expect(writePackage(spool, meta(), [approved], SECRET)).rejects.toThrow('在审批后被修改');
    expect(fs.readdirSync(spool).filter((n) => !n.startsWith('.incoming-half'))).toEqual([]);
  });

  test('an unreadable package (no signature, bad JSON) is quarantined, never imported', async () => {
    const { dir } = await writePackage(spool, meta(), [source('a.txt', Buffer.from('a'))], SECRET);
    fs.rmSync(path.join(dir, 'manifest.sig'));
    fs.mkdirSync(path.join(spool, 'junk.pkg'));
    const result = await receive();
    expect(result.accepted).toEqual([]);
    expect(result.rejected.map((r) => r.reason).sort()).toEqual(['unreadable', 'unreadable']);
  });
});
