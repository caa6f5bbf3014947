// The instances of 云文档 that serve one database. Each one records itself (host, key fingerprint,
// where its contents live) and beats every HEARTBEAT_MS; a new instance that finds live ones
// checks that it can work beside them before it serves anything, and refuses to start, saying
// why, when it could not:
//   - SQLite lives in one machine's folder: instances on other hosts cannot share it;
//   - every instance must seal and open secrets with the same key (SECRET_KEY);
//   - the file contents must be shared: the same object store, or the same data folder (a
//     shared mount, told by a marker each instance leaves in its data folder).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, ServerInstancesTable } from '../../db/types';
import type { SecretBox } from '../../lib/secret-box';

export const HEARTBEAT_MS = 10_000;
/** an instance silent this long is taken for stopped */
export const LIVE_MS = 35_000;
const MARKERS = '.instances';

export class InstanceConflict extends Error {}

/** Where an instance's contents live, as instances compare it. */
export function storageOf(config: Pick<AppConfig, 'storage'>): string {
  const s = config.storage;
  return s.kind === 'local' ? 'local' : `s3:${s.endpoint ?? 'aws'}/${s.bucket}/${s.prefix}`;
}

export class Instances {
  readonly id = crypto.randomBytes(8).toString('hex');
  readonly host = os.hostname();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<AppConfig, 'dataDir' | 'storage' | 'databaseUrl'>,
    private readonly box: SecretBox,
  ) {}

  private get markerDir(): string {
    return path.join(this.config.dataDir, MARKERS);
  }

  /** The live instances other than this one. */
  async others(now = Date.now()): Promise<ServerInstancesTable[]> {
    return this.db.selectFrom('server_instances').selectAll().where('heartbeat_at', '>=', now - LIVE_MS).where('id', '!=', this.id).orderBy('started_at').execute();
  }

  /** Why this instance cannot work beside the live ones, in Chinese; null when it can. */
  async conflict(now = Date.now()): Promise<string | null> {
    const fingerprint = this.box.fingerprint();
    const storage = storageOf(this.config);
    for (const other of await this.others(now)) {
      const who = `另一个实例（主机 ${other.host}，进程 ${other.pid}）`;
      if (!this.config.databaseUrl && other.host !== this.host) {
        return `${who}正在使用同一个 SQLite 数据库：SQLite 只能由一台机器使用，多个实例请改用 PostgreSQL（DATABASE_URL）`;
      }
      if (other.key_fingerprint !== fingerprint) {
        return `${who}使用了不同的密钥：多个实例须设置相同的 SECRET_KEY（否则彼此无法读取加密保存的动态口令等机密）`;
      }
      if (other.storage !== storage) {
        return `${who}的文件内容保存在别处（${other.storage === 'local' ? '本地目录' : '对象存储'}）：多个实例须使用同一个对象存储（S3_BUCKET 等）或同一个共享目录`;
      }
      if (storage === 'local' && !fs.existsSync(path.join(this.markerDir, other.id))) {
        return `${who}的数据目录与本实例的 DATA_DIR（${this.config.dataDir}）不是同一个目录：多个实例须使用对象存储（S3_BUCKET 等），或把 DATA_DIR 放在共享目录上`;
      }
    }
    return null;
  }

  /** Checks the live instances, then records this one and beats until stop(). */
  async start(): Promise<void> {
    const why = await this.conflict();
    if (why) throw new InstanceConflict(why);
    const now = Date.now();
    fs.mkdirSync(this.markerDir, { recursive: true });
    fs.writeFileSync(path.join(this.markerDir, this.id), `${this.host} ${process.pid}\n`);
    await this.db
      .insertInto('server_instances')
      .values({ id: this.id, host: this.host, pid: process.pid, started_at: now, heartbeat_at: now, key_fingerprint: this.box.fingerprint(), storage: storageOf(this.config) })
      .execute();
    // rows and markers of instances silent for a day (killed, never stopped) are forgotten
    await this.db.deleteFrom('server_instances').where('heartbeat_at', '<', now - 24 * 3600_000).execute();
    for (const name of fs.readdirSync(this.markerDir)) {
      const file = path.join(this.markerDir, name);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (st && now - st.mtimeMs > 24 * 3600_000) fs.rmSync(file, { force: true });
    }
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      await this.db.updateTable('server_instances').set({ heartbeat_at: Date.now() }).where('id', '=', this.id).execute();
    } catch {
      // the database is away for a moment: the next beat tries again
    }
  }

  /** This instance stops: its row and marker go. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.db.deleteFrom('server_instances').where('id', '=', this.id).execute().catch(() => undefined);
    fs.rmSync(path.join(this.markerDir, this.id), { force: true });
  }
}
