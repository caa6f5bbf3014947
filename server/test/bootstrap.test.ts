// 云文档 first start: migrations and seeding, idempotent across restarts.
import { sql } from 'kysely';
import { ADMIN_USER, call, databaseKinds, login, ok, startServer, userWithToken } from './support/harness';

describe.each(databaseKinds())('first start and restarts (%s)', (kind) => {
  test('without ADMIN_PASSWORD a password is generated once, and it works', async () => {
    const server = await startServer(kind, { env: { ADMIN_PASSWORD: '' } });
    try {
      const generated = server.app.bootstrap.generatedAdminPassword;
      expect(typeof generated).toBe('string');
      expect(generated!.length).toBeGreaterThanOrEqual(12);
      expect(server.app.bootstrap.adminUserName).toBe(ADMIN_USER);
      const session = await login(server.app, ADMIN_USER, generated!);
      expect(session.isDocAdmin).toBe(true);

      const again = await server.restart();
      expect(again.bootstrap.generatedAdminPassword).toBeNull();
      // the first password still works after the restart
      expect((await login(again, ADMIN_USER, generated!)).token).toBeTruthy();
    } finally {
      await server.close();
    }
  });

  test('a restart keeps users, settings, folders and sessions, and seeds nothing twice', async () => {
    const server = await startServer(kind);
    try {
      const admin = await login(server.app);
      const user = await userWithToken(server.app, admin.token);
      const policy = { personalSpace: true, publicSpace: false, workflow: true, ferrySpaces: false };
      await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: admin.token, body: policy });
      const [root] = await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: user.token });
      await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token: user.token, body: { parentId: root.id, name: '重启前', type: 'folder' } });

      const again = await server.restart();
      expect(again.bootstrap.generatedAdminPassword).toBeNull();
      // the old session still works on the restarted server
      expect(await ok(again, 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: user.token })).toEqual(policy);
      const listing = await ok(again, 'GET', `/api/User/Folders/${root.id}/Items`, { token: user.token });
      expect(listing.items.data.map((i: { name: string }) => i.name)).toEqual(['重启前']);

      const db = again.db;
      const count = async (query: string) => Number((await sql<{ n: number | string }>`${sql.raw(query)}`.execute(db)).rows[0].n);
      expect(await count(`select count(*) as n from users where user_name_key = '${ADMIN_USER}'`)).toBe(1);
      expect(await count('select count(*) as n from departments')).toBe(1);
      expect(await count('select count(*) as n from settings')).toBe(4);
      expect(await count('select count(*) as n from items where parent_id is null and space_type = 1')).toBe(1);
      const roots = await db.selectFrom('items').select(['owner_id']).where('parent_id', 'is', null).where('space_type', '=', 2).execute();
      const owners = roots.map((r) => Number(r.owner_id));
      expect(new Set(owners).size).toBe(owners.length);
      const users = await db.selectFrom('users').select('id').execute();
      expect(owners.sort()).toEqual(users.map((u) => Number(u.id)).sort());
    } finally {
      await server.close();
    }
  });

  test('a personal root folder that went missing is repaired at the next start', async () => {
    const server = await startServer(kind);
    try {
      const admin = await login(server.app);
      const user = await userWithToken(server.app, admin.token);
      await server.app.db.deleteFrom('items').where('owner_id', '=', Number(user.userId)).execute();
      const again = await server.restart();
      const roots = await ok(again, 'GET', '/api/User/Folders/Personal/RootFolders', { token: user.token });
      expect(roots).toHaveLength(1);
      expect(roots[0]).toMatchObject({ name: '个人文件', ownerId: user.userId, idPath: `2/${roots[0].id}` });
    } finally {
      await server.close();
    }
  });

  if (kind === 'sqlite') {
    test('a folder listing reads an index in order, without scanning or sorting the folder', async () => {
      const server = await startServer(kind);
      try {
        const plan = async (orderBy: string, index: string) => {
          const rows = await sql<{ detail: string }>`explain query plan
            select * from items where parent_id = ${1} and deleted_at is null and type_order = ${1}
            order by ${sql.raw(orderBy)} limit 100 offset 200`.execute(server.app.db);
          const details = rows.rows.map((r) => r.detail).join('\n');
          expect({ orderBy, details }).toEqual({ orderBy, details: expect.stringMatching(new RegExp(`USING (COVERING )?INDEX ${index}`)) });
          expect(details).not.toMatch(/TEMP B-TREE/);
        };
        await plan('name_key asc, id asc', 'items_list_name');
        await plan('name_key desc, id desc', 'items_list_name');
        await plan('size desc, name_key desc, id desc', 'items_list_size');
        await plan('updated_at asc, name_key asc, id asc', 'items_list_updated');
        await plan('updated_at desc, name_key desc, id desc', 'items_list_updated');
        await plan('extension asc, name_key asc, id asc', 'items_list_extension');
      } finally {
        await server.close();
      }
    });

    test('the SQLite database lives in DATA_DIR/app.db with WAL and foreign keys on', async () => {
      const server = await startServer(kind);
      try {
        const fs = await import('node:fs');
        const path = await import('node:path');
        expect(fs.existsSync(path.join(server.config.dataDir, 'app.db'))).toBe(true);
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(server.app.db);
        expect(mode.rows[0].journal_mode).toBe('wal');
        const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(server.app.db);
        expect(fk.rows[0].foreign_keys).toBe(1);
        // unauthenticated probe the e2e harness uses to see that the server is up
        expect((await call(server.app, 'GET', '/runtime-config.json')).status).toBe(200);
      } finally {
        await server.close();
      }
    });
  }
});
