// Several instances of 云文档 on one database: a new instance beside live ones starts only when
// they can share the work, and otherwise refuses with the reason in Chinese (a different
// SECRET_KEY, contents in a data folder that is not shared, SQLite used from another machine).
// An instance that stopped no longer counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseKinds, login, ok, startServer, type TestServer } from './support/harness';

const KEY = 'k'.repeat(40);

describe.each(databaseKinds())('instances (%s)', (kind) => {
  let server: TestServer;
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-other-data-'));

  beforeAll(async () => {
    server = await startServer(kind, { env: { SECRET_KEY: KEY } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  test('a second instance on the same data folder and key starts and serves', async () => {
    const second = await server.restart();
    const { token } = await login(second);
    expect(await ok(second, 'GET', '/api/User/Folders/Personal/RootFolders', { token })).toHaveLength(1);
    const rows = await server.app.db.selectFrom('server_instances').select(['id', 'host', 'storage']).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.host === os.hostname() && r.storage === 'local')).toBe(true);
    await second.close();
    expect(await server.app.db.selectFrom('server_instances').select('id').execute()).toHaveLength(1);
  });

  test('a different SECRET_KEY is refused, naming the setting', async () => {
    await expect(server.restart({ SECRET_KEY: 'x'.repeat(40) })).rejects.toThrow(/使用了不同的密钥：多个实例须设置相同的 SECRET_KEY/);
  });

  // (on SQLite another data folder is another database: a deployment of its own)
  if (kind === 'postgres') {
    test('contents in a data folder of its own, with local storage, are refused', async () => {
      await expect(server.restart({ DATA_DIR: elsewhere })).rejects.toThrow(
        `的数据目录与本实例的 DATA_DIR（${elsewhere}）不是同一个目录：多个实例须使用对象存储（S3_BUCKET 等），或把 DATA_DIR 放在共享目录上`,
      );
    });
  }

  test('an instance silent for long no longer counts', async () => {
    const now = Date.now();
    await server.app.db
      .insertInto('server_instances')
      .values({ id: 'gone', host: 'other-host', pid: 1, started_at: now - 3600_000, heartbeat_at: now - 60_000, key_fingerprint: 'none', storage: 'local' })
      .execute();
    const third = await server.restart();
    await third.close();
  });

  if (kind === 'sqlite') {
    test('SQLite used by an instance on another machine is refused', async () => {
      const now = Date.now();
      await server.app.db
        .insertInto('server_instances')
        .values({ id: 'remote', host: 'another-machine', pid: 42, started_at: now, heartbeat_at: now, key_fingerprint: 'none', storage: 'local' })
        .execute();
      try {
        await expect(server.restart()).rejects.toThrow('另一个实例（主机 another-machine，进程 42）正在使用同一个 SQLite 数据库：SQLite 只能由一台机器使用，多个实例请改用 PostgreSQL（DATABASE_URL）');
      } finally {
        await server.app.db.deleteFrom('server_instances').where('id', '=', 'remote').execute();
      }
    });
  }
});
