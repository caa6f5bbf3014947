// Shares of 云文档 in the database: the share rows, their items and recipients, the record of
// what happened through them, and the wrong keys given (docs/integration.md, "Sharing").
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, ShareEventsTable, ShareRow } from '../../db/types';

export const SHARE_INTERNAL = 1;
export const SHARE_EXTERNAL = 2;

/** Recipients of an internal share. */
export const TARGET = { user: 1, department: 2, group: 3 } as const;

/** A share id: 16 random bytes (128 bits), base64url. */
export const SHARE_ID = /^[A-Za-z0-9_-]{16,32}$/;

export function newShareId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const KEY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A random 提取码 of 6 characters (31⁶ ≈ 8.9 × 10⁸ keys). */
export function randomAccessKey(): string {
  const bytes = crypto.randomBytes(6);
  let key = '';
  // 256 is not a multiple of 31: draw again for the few values that would bias the result
  for (let i = 0; key.length < 6; i++) {
    const b = i < bytes.length ? bytes[i] : crypto.randomBytes(1)[0];
    if (b < 248) key += KEY_ALPHABET[b % 31];
  }
  return key;
}

/** SHA-256 (hex) of an access key, as stored. */
export function hashAccessKey(accessKey: string): string {
  return crypto.createHash('sha256').update(accessKey, 'utf8').digest('hex');
}

/** True when `accessKey` is the share's key (constant-time comparison of the hashes). */
export function accessKeyMatches(share: Pick<ShareRow, 'access_key_hash'>, accessKey: string | undefined | null): boolean {
  if (typeof accessKey !== 'string' || !accessKey) return false;
  const given = Buffer.from(hashAccessKey(accessKey), 'hex');
  const stored = Buffer.from(share.access_key_hash, 'hex');
  return given.length === stored.length && crypto.timingSafeEqual(given, stored);
}

/** A share that is not cancelled (expiry and the limit are the caller's to check). */
export function findShare(db: Kysely<Database>, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
}

/** A share of this owner, cancelled or not. */
export function findOwnShare(db: Kysely<Database>, ownerId: number, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
}

/** Cancels shares of an owner that are not cancelled yet: the ones named, or all of them (`ids` null); returns how many. */
export async function cancelShares(db: Kysely<Database>, ownerId: number, ids: readonly string[] | null, now: number): Promise<number> {
  let q = db.updateTable('shares').set({ deleted: 1, cancelled_at: now, updated_at: now }).where('owner_id', '=', ownerId).where('deleted', '=', 0);
  if (ids) q = q.where('id', 'in', [...ids]);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export interface ShareTarget {
  type: number;
  id: number;
}

export interface NewShareInput {
  ownerId: number;
  /** the shared items, in order (or the one item `rootItemId`) */
  itemIds?: number[];
  rootItemId?: number;
  shareType?: number;
  /** 1–3; without it, `allowUpload` decides between 3 and 2 */
  level?: number;
  allowUpload?: boolean;
  /** external shares: the key (stored hashed) */
  accessKey?: string | null;
  expiresAt: number | null;
  downloadLimit?: number | null;
  targets?: ShareTarget[];
  now?: number;
  /** more writes in the share's transaction (the event that tells its recipients) */
  also?: (trx: Kysely<Database>, row: ShareRow) => Promise<void>;
}

/** Creates a share with a random id, its items and recipients; returns its row. */
export async function insertShare(db: Kysely<Database>, input: NewShareInput): Promise<ShareRow> {
  const itemIds = input.itemIds ?? (input.rootItemId !== undefined ? [input.rootItemId] : []);
  if (!itemIds.length) throw new Error('shares: no item');
  const level = input.level ?? (input.allowUpload ? 3 : 2);
  const now = input.now ?? Date.now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('shares')
      .values({
        id: newShareId(),
        owner_id: input.ownerId,
        root_item_id: itemIds[0],
        share_type: input.shareType ?? SHARE_EXTERNAL,
        level,
        access_key_hash: input.accessKey ? hashAccessKey(input.accessKey) : '',
        allow_upload: level >= 3 ? 1 : 0,
        expires_at: input.expiresAt,
        download_limit: input.downloadLimit ?? null,
        download_count: 0,
        visit_count: 0,
        deleted: 0,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('share_items')
      .values(itemIds.map((itemId, position) => ({ share_id: row.id, item_id: itemId, position })))
      .execute();
    if (input.targets?.length) await replaceTargets(trx, row.id, input.targets);
    if (input.also) await input.also(trx, row);
    return row;
  });
}

export async function replaceTargets(db: Kysely<Database>, shareId: string, targets: ShareTarget[]): Promise<void> {
  await db.deleteFrom('share_targets').where('share_id', '=', shareId).execute();
  if (!targets.length) return;
  await db
    .insertInto('share_targets')
    .values(targets.map((t) => ({ share_id: shareId, target_type: t.type, target_id: t.id })))
    .execute();
}

/** The item ids of shares, in each share's order. */
export async function itemIdsOf(db: Kysely<Database>, shareIds: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (!shareIds.length) return out;
  const rows = await db
    .selectFrom('share_items')
    .select(['share_id', 'item_id'])
    .where('share_id', 'in', [...shareIds])
    .orderBy('share_id')
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = out.get(r.share_id);
    if (list) list.push(Number(r.item_id));
    else out.set(r.share_id, [Number(r.item_id)]);
  }
  return out;
}

/** The recipients of shares. */
export async function targetsOf(db: Kysely<Database>, shareIds: readonly string[]): Promise<Map<string, ShareTarget[]>> {
  const out = new Map<string, ShareTarget[]>();
  if (!shareIds.length) return out;
  const rows = await db
    .selectFrom('share_targets')
    .select(['share_id', 'target_type', 'target_id'])
    .where('share_id', 'in', [...shareIds])
    .orderBy('target_type')
    .orderBy('target_id')
    .execute();
  for (const r of rows) {
    const t = { type: Number(r.target_type), id: Number(r.target_id) };
    const list = out.get(r.share_id);
    if (list) list.push(t);
    else out.set(r.share_id, [t]);
  }
  return out;
}

/** Counts one download if the limit allows it (one statement: concurrent downloads cannot both take the last one). */
export async function takeDownload(db: Kysely<Database>, shareId: string): Promise<boolean> {
  const r = await db
    .updateTable('shares')
    .set({ download_count: sql`download_count + 1` })
    .where('id', '=', shareId)
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('download_limit', 'is', null), eb('download_count', '<', eb.ref('download_limit'))]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function countVisit(db: Kysely<Database>, shareId: string): Promise<void> {
  await db.updateTable('shares').set({ visit_count: sql`visit_count + 1` }).where('id', '=', shareId).execute();
}

export type NewShareEvent = Omit<ShareEventsTable, 'id'>;

export async function recordEvent(db: Kysely<Database>, event: NewShareEvent): Promise<void> {
  await db.insertInto('share_events').values(event).execute();
}

/** Wrong keys given for a share since `since`: from this address, and from all addresses. */
export async function keyFailuresSince(db: Kysely<Database>, shareId: string, address: string, since: number): Promise<{ address: number; share: number }> {
  const row = await db
    .selectFrom('share_key_failures')
    .select([
      sql<number>`count(*)`.as('share'),
      sql<number>`sum(case when address = ${address} then 1 else 0 end)`.as('address'),
    ])
    .where('share_id', '=', shareId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { address: Number(row?.address ?? 0), share: Number(row?.share ?? 0) };
}

/** Records a wrong key and forgets those older than the window. */
export async function recordKeyFailure(db: Kysely<Database>, shareId: string, address: string, now: number, windowMs: number): Promise<void> {
  await db.insertInto('share_key_failures').values({ share_id: shareId, address, created_at: now }).execute();
  await db.deleteFrom('share_key_failures').where('created_at', '<=', now - windowMs).execute();
}
