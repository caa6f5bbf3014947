// WebDAV write locks (RFC 4918 §6, §7, §9.10, §9.11, §10.4; class 2): exclusive and shared
// locks of depth 0 or infinity kept in dav_locks (several instances share them), with
// timeouts, refresh and the If header. A lock belongs to an item (it goes with it) and to the
// person who took it; a locked item, or an item below a depth-infinity lock, refuses writes
// whose If header does not submit the lock's token (423).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { lockKey } from '../../db/locks';
import { escapeXml } from './xml';

export interface ActiveLock {
  token: string;
  itemId: number;
  userId: number;
  scope: 'exclusive' | 'shared';
  /** 0 or -1 (infinity) */
  depth: number;
  /** the owner element's content, as XML */
  owner: string;
  timeoutSeconds: number;
  expiresAt: number;
  /** the lock root, percent-encoded */
  root: string;
}

/** the longest a lock lasts without a refresh (Timeout: Infinite included) */
export const MAX_TIMEOUT_S = 24 * 60 * 60;
export const DEFAULT_TIMEOUT_S = 60 * 60;

/** Timeout header (RFC 4918 §10.7): the first value understood, within MAX_TIMEOUT_S. */
export function timeoutOf(header: string | undefined): number {
  for (const part of (header ?? '').split(',').map((p) => p.trim())) {
    if (/^infinite$/i.test(part)) return MAX_TIMEOUT_S;
    const m = /^Second-(\d+)$/i.exec(part);
    if (m) return Math.max(1, Math.min(MAX_TIMEOUT_S, Number(m[1])));
  }
  return DEFAULT_TIMEOUT_S;
}

export function newToken(): string {
  return `opaquelocktoken:${crypto.randomUUID()}`;
}

/** The D:activelock of a lock. */
export function activeLockXml(l: ActiveLock, now = Date.now()): string {
  const left = Math.max(0, Math.round((l.expiresAt - now) / 1000));
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.scope}/></D:lockscope>` +
    `<D:depth>${l.depth === 0 ? '0' : 'infinity'}</D:depth>${l.owner ? `<D:owner>${l.owner}</D:owner>` : ''}` +
    `<D:timeout>Second-${left}</D:timeout><D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(l.root)}</D:href></D:lockroot></D:activelock>`
  );
}

export const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** The ids above an item, from its id path ("1/5/9": 1 and 5). */
export function ancestorsOf(idPath: string): number[] {
  const ids = idPath.split('/').filter(Boolean).map(Number);
  ids.pop();
  return ids;
}

type LockRow = Database['dav_locks'];

function fromRow(r: { token: string; item_id: number; user_id: number; scope: string; depth: number; owner_xml: string; timeout_s: number; expires_at: number; root_href: string }): ActiveLock {
  return {
    token: r.token,
    itemId: Number(r.item_id),
    userId: Number(r.user_id),
    scope: r.scope === 'shared' ? 'shared' : 'exclusive',
    depth: Number(r.depth),
    owner: r.owner_xml,
    timeoutSeconds: Number(r.timeout_s),
    expiresAt: Number(r.expires_at),
    root: r.root_href,
  };
}

export class DavLocks {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The live locks that cover an item: its own, and the depth-infinity locks of the folders
   * above it; with `below`, also the locks of the items under it (a folder deleted or moved).
   */
  async covering(item: { id: number; id_path: string }, below = false, db: Kysely<Database> = this.db): Promise<ActiveLock[]> {
    const now = Date.now();
    const above = ancestorsOf(item.id_path);
    let q = db
      .selectFrom('dav_locks')
      .selectAll()
      .where('expires_at', '>', now)
      .where((eb) => {
        const ors = [eb('item_id', '=', item.id)];
        if (above.length) ors.push(eb.and([eb('item_id', 'in', above), eb('depth', '=', -1)]));
        if (below) ors.push(eb('item_id', 'in', eb.selectFrom('items').select('id').where('id_path', 'like', `${item.id_path}/%`)));
        return eb.or(ors);
      });
    q = q.orderBy('created_at');
    return (await q.execute()).map(fromRow);
  }

  /** The live locks covering each of several items (lockdiscovery). */
  async coveringMany(items: { id: number; idPath: string }[]): Promise<Map<number, ActiveLock[]>> {
    const out = new Map<number, ActiveLock[]>();
    if (!items.length) return out;
    const ids = new Set<number>();
    for (const i of items) {
      ids.add(i.id);
      for (const a of ancestorsOf(i.idPath)) ids.add(a);
    }
    const rows = (await this.db.selectFrom('dav_locks').selectAll().where('expires_at', '>', Date.now()).where('item_id', 'in', [...ids]).orderBy('created_at').execute()).map(fromRow);
    if (!rows.length) return out;
    for (const i of items) {
      const above = new Set(ancestorsOf(i.idPath));
      out.set(
        i.id,
        rows.filter((l) => l.itemId === i.id || (l.depth === -1 && above.has(l.itemId))),
      );
    }
    return out;
  }

  async byToken(token: string): Promise<ActiveLock | undefined> {
    const row = await this.db.selectFrom('dav_locks').selectAll().where('token', '=', token).where('expires_at', '>', Date.now()).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Takes a new lock unless a conflicting one exists (an exclusive one, or any when this one is
   * exclusive), in one transaction so that two instances cannot both win. Null on a conflict.
   */
  async take(item: { id: number; id_path: string }, lock: Omit<ActiveLock, 'token' | 'expiresAt' | 'itemId'>): Promise<ActiveLock | null> {
    const now = Date.now();
    return this.db.transaction().execute(async (trx) => {
      // one writer at a time for the locks (any instance)
      await lockKey(trx, 'dav-locks');
      await trx.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
      const present = await this.covering(item, lock.depth === -1, trx);
      if (present.some((l) => l.scope === 'exclusive') || (present.length && lock.scope === 'exclusive')) return null;
      const made: ActiveLock = { ...lock, itemId: item.id, token: newToken(), expiresAt: now + lock.timeoutSeconds * 1000 };
      const row: LockRow = {
        token: made.token,
        item_id: item.id,
        user_id: made.userId,
        scope: made.scope,
        depth: made.depth,
        owner_xml: made.owner,
        timeout_s: made.timeoutSeconds,
        expires_at: made.expiresAt,
        root_href: made.root,
        created_at: now,
      };
      await trx.insertInto('dav_locks').values(row).execute();
      return made;
    });
  }

  async refresh(token: string, timeoutSeconds: number): Promise<ActiveLock | undefined> {
    const expiresAt = Date.now() + timeoutSeconds * 1000;
    await this.db.updateTable('dav_locks').set({ expires_at: expiresAt, timeout_s: timeoutSeconds }).where('token', '=', token).execute();
    return this.byToken(token);
  }

  async release(token: string): Promise<void> {
    await this.db.deleteFrom('dav_locks').where('token', '=', token).execute();
  }

  /** An item moved or deleted: its locks, and those below it, end (RFC 4918 §7.5, §9.9.4). */
  async releaseItem(item: { id: number; id_path: string }): Promise<void> {
    await this.db
      .deleteFrom('dav_locks')
      .where((eb) => eb.or([eb('item_id', '=', item.id), eb('item_id', 'in', eb.selectFrom('items').select('id').where('id_path', 'like', `${item.id_path}/%`))]))
      .execute();
  }
}

// ---- the If header (RFC 4918 §10.4) -----------------------------------------------------

export interface IfCondition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}

export interface IfList {
  /** the tagged resource's path (absolute URL or path as sent), or null for the request's */
  resource: string | null;
  conditions: IfCondition[];
}

export class BadIf extends Error {}

export function parseIf(header: string): IfList[] {
  const out: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  const s = header;
  const space = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  space();
  const tagged = s[i] === '<';
  while (i < s.length) {
    space();
    if (i >= s.length) break;
    if (s[i] === '<') {
      if (!tagged) throw new BadIf('If 请求头格式错误');
      const end = s.indexOf('>', i);
      if (end < 0) throw new BadIf('If 请求头格式错误');
      tag = s.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (s[i] !== '(') throw new BadIf('If 请求头格式错误');
    i++;
    const list: IfList = { resource: tagged ? tag : null, conditions: [] };
    for (;;) {
      space();
      if (s[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (/^not\b/i.test(s.slice(i, i + 4))) {
        not = true;
        i += 3;
        space();
      }
      if (s[i] === '<') {
        const end = s.indexOf('>', i);
        if (end < 0) throw new BadIf('If 请求头格式错误');
        list.conditions.push({ not, kind: 'token', value: s.slice(i + 1, end) });
        i = end + 1;
      } else if (s[i] === '[') {
        const end = s.indexOf(']', i);
        if (end < 0) throw new BadIf('If 请求头格式错误');
        list.conditions.push({ not, kind: 'etag', value: s.slice(i + 1, end).replace(/^W\//, '') });
        i = end + 1;
      } else {
        throw new BadIf('If 请求头格式错误');
      }
    }
    if (!list.conditions.length) throw new BadIf('If 请求头格式错误');
    out.push(list);
  }
  if (!out.length) throw new BadIf('If 请求头格式错误');
  return out;
}
