// Shares of 云文档 (minimal: what external uploads need). A share names a root item, the user
// whose rights apply, a hashed access key, whether uploads are allowed and when it expires.
// The share pages extend this (docs/integration.md, "Upload (issue 4)").
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, ShareRow } from '../../db/types';

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

/** A share that is not deleted (expiry is the caller's to check). */
export function findShare(db: Kysely<Database>, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
}

export interface NewShareInput {
  ownerId: number;
  rootItemId: number;
  accessKey: string;
  allowUpload: boolean;
  expiresAt: number | null;
  now?: number;
}

/** Creates a share with a random id; returns its row. */
export async function insertShare(db: Kysely<Database>, input: NewShareInput): Promise<ShareRow> {
  return db
    .insertInto('shares')
    .values({
      id: crypto.randomBytes(12).toString('base64url'),
      owner_id: input.ownerId,
      root_item_id: input.rootItemId,
      access_key_hash: hashAccessKey(input.accessKey),
      allow_upload: input.allowUpload ? 1 : 0,
      expires_at: input.expiresAt,
      deleted: 0,
      created_at: input.now ?? Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
