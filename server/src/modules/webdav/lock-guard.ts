// The web's own changes respect WebDAV locks (issue 29): a file someone has open in Office
// through WebDAV (an exclusive or shared write lock) cannot be renamed, moved, deleted, given a
// new version or written over from the web by anyone else until the lock is released or runs
// out; a folder locked with Depth: infinity protects everything in it. The person holding the
// lock may go on in the web (they know the file is open). Routes say what they change in
// `config.davLock`; the answer for a locked item is 423 in the envelope, in Chinese, naming the
// item and who holds it.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { globalPlugin } from '../../lib/plugin';
import { itemNameKey } from '../folders/repository';
import { DavLocks, type ActiveLock } from './locks';

type Ids = ReadonlyArray<string | number> | string | number | null | undefined;

export interface DavLockCheck {
  /** items changed themselves (renamed, moved, deleted, versioned), with everything in them */
  items?: Ids;
  /** folders that get new members (the target of a move, copy or upload) */
  into?: Ids;
  /** a file written over: the one named so in the folder, when there is one */
  over?: { folderId: string | number; name: string } | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    davLock?: (req: FastifyRequest) => DavLockCheck | Promise<DavLockCheck>;
  }
}

const idsOf = (ids: Ids): number[] => {
  if (ids === null || ids === undefined || ids === '') return [];
  const list = Array.isArray(ids) ? ids : [ids as string | number];
  return list.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0).slice(0, 1000);
};

export const LOCKED_CODE = 42301;

export const davLockGuard = globalPlugin('yunwendang-dav-lock-guard', async (app) => {
  const locks = new DavLocks(app.db);

  /** The first lock held by someone other than `userId` among these, with its item's name. */
  const othersLock = async (userId: number, rows: { id: number; id_path: string; name: string }[], below: boolean) => {
    for (const row of rows) {
      const held = (await locks.covering(row, below)).find((l: ActiveLock) => l.userId !== userId);
      if (held) return { row, held };
    }
    return null;
  };

  app.addHook('preHandler', async (req) => {
    const check = req.routeOptions.config?.davLock;
    if (!check || !req.auth) return;
    // nothing is locked at all (the usual case): one cheap look
    const any = await app.db.selectFrom('dav_locks').select('token').where('expires_at', '>', Date.now()).limit(1).executeTakeFirst();
    if (!any) return;
    const what = await check(req);
    const userId = Number(req.auth.user.id);
    const rowsOf = async (ids: number[]) =>
      ids.length ? await app.db.selectFrom('items').select(['id', 'id_path', 'name']).where('id', 'in', ids).execute() : [];
    let found = await othersLock(userId, await rowsOf(idsOf(what.items)), true);
    found ??= await othersLock(userId, await rowsOf(idsOf(what.into)), false);
    if (!found && what.over && Number.isSafeInteger(Number(what.over.folderId))) {
      const existing = await app.db
        .selectFrom('items')
        .select(['id', 'id_path', 'name'])
        .where('parent_id', '=', Number(what.over.folderId))
        .where('name_key', '=', itemNameKey(what.over.name))
        .where('deleted_at', 'is', null)
        .execute();
      found = await othersLock(userId, existing, false);
    }
    if (!found) return;
    const holder = await app.db.selectFrom('users').select(['nick_name', 'user_name']).where('id', '=', found.held.userId).executeTakeFirst();
    const who = holder ? holder.nick_name || holder.user_name : '其他人';
    // the locked item itself (a file inside the folder being changed, or the folder locked above it)
    const lockedItem = await app.db.selectFrom('items').select('name').where('id', '=', found.held.itemId).executeTakeFirst();
    throw new AppError(423, LOCKED_CODE, `“${lockedItem?.name ?? found.row.name}”正被${who}通过 WebDAV 锁定（例如正在 Office 中编辑），请等对方保存关闭后再试`);
  });
});
