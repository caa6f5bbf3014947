// Avatars of 云文档 users: a picture the user uploads (JPG, PNG, WebP or GIF, up to 5 MB) is
// re-encoded by sharp to a 256-pixel square WebP (no EXIF, no scripts, one frame), written to
// the object store as `avatars/<name>` (under $DATA_DIR, or in the bucket) with a fresh name, and
// served from /api/User/Avatar/{userId} by any instance.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { reencodeImage } from '../../lib/images';
import { ObjectMissing, type ObjectStore } from '../storage/store';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
const SIZE = 256;
export const AVATAR_TYPES_TEXT = '头像只能是 JPG、PNG、WebP 或 GIF 图片';

export class AvatarStore {
  constructor(private readonly store: ObjectStore) {}

  /** The object key of a stored avatar name, or null for a name this store never made. */
  keyOf(name: string): string | null {
    return /^\d+-[0-9a-f]{16}\.webp$/.test(name) ? `avatars/${name}` : null;
  }

  /** The avatar's bytes, or null when it is not stored. */
  async open(name: string): Promise<Readable | null> {
    const key = this.keyOf(name);
    if (!key) return null;
    try {
      return await this.store.get(key);
    } catch (err) {
      if (err instanceof ObjectMissing) return null;
      throw err;
    }
  }

  /** Re-encodes the picture and stores it; returns the new avatar's name. */
  async save(userId: number, bytes: Buffer): Promise<string> {
    const webp = await reencodeImage(bytes, { fit: 'cover', width: SIZE, height: SIZE, format: 'webp', typesText: AVATAR_TYPES_TEXT });
    const name = `${userId}-${crypto.randomBytes(8).toString('hex')}.webp`;
    await this.store.put(`avatars/${name}`, webp);
    return name;
  }

  /** Removes an avatar no longer in use (missing ones are fine). */
  async remove(name: string | null): Promise<void> {
    const key = name ? this.keyOf(name) : null;
    if (key) await this.store.delete([key]);
  }
}

/** The URL kept in users.avatar for a stored avatar name. */
export const avatarUrl = (userId: number, name: string) => `/api/User/Avatar/${userId}?v=${name.slice(name.indexOf('-') + 1, -5)}`;
/** The stored name behind a users.avatar URL this store made, or null. */
export function avatarName(userId: number, url: string): string | null {
  const m = /^\/api\/User\/Avatar\/(\d+)\?v=([0-9a-f]{16})$/.exec(url);
  return m && Number(m[1]) === userId ? `${userId}-${m[2]}.webp` : null;
}
