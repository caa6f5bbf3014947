// Chunked uploads over WebDAV as Nextcloud's clients send them (its "chunking v2", and v1's
// named parts): MKCOL /dav/uploads/<user>/<id> (with the target in Destination and the size in
// OC-Total-Length, both optional), PUT /dav/uploads/<user>/<id>/<part> for each part, PROPFIND
// of the upload to see which parts arrived (a client resumes from there), MOVE .../.file to the
// target (the parts, in order, streamed through the same path as a PUT), DELETE to give up.
//
// One row per upload (dav_uploads); each part is an object of the store under
// dav-uploads/<id>/<part>, written whole or not at all, so any instance takes the next part or
// assembles them. An upload untouched for a day is removed with its parts (sweep, run by one
// instance at a time under a lease).
import { Readable } from 'node:stream';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DavUploadsTable } from '../../db/types';
import type { ObjectStore } from '../storage/store';

export type DavUpload = Selectable<DavUploadsTable>;

/** Parts one upload may have (chunking v2 numbers them 1 to 10,000). */
export const MAX_PARTS = 10_000;
/** Unfinished uploads one person may keep. */
export const MAX_OPEN_UPLOADS = 50;
/** An upload untouched this long is removed. */
export const IDLE_MS = 24 * 3600_000;
/** The name MOVE assembles from. */
export const ASSEMBLE = '.file';

/** An upload's or a part's name: letters, digits, '.', '_' and '-' (what the clients send), not '.file'. */
export function validName(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,100}$/.test(name) && name !== '.' && name !== '..' && name !== ASSEMBLE;
}

export interface DavPart {
  name: string;
  size: number;
  modifiedAt: number;
}

/** The order of the parts: by number when every name is one (v2), else by name (v1's byte ranges). */
export function inOrder(parts: DavPart[]): DavPart[] {
  const numeric = parts.every((p) => /^\d+$/.test(p.name));
  return [...parts].sort((a, b) => (numeric ? Number(a.name) - Number(b.name) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class DavChunkedUploads {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly objects: ObjectStore,
  ) {}

  private prefix(upload: DavUpload): string {
    return `dav-uploads/${upload.id}/`;
  }

  find(userId: number, name: string): Promise<DavUpload | undefined> {
    return this.db.selectFrom('dav_uploads').selectAll().where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
  }

  /** How many unfinished uploads the person has. */
  async openCount(userId: number): Promise<number> {
    const row = await this.db.selectFrom('dav_uploads').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** MKCOL: a new upload (null when the person already has one of that name). */
  async open(userId: number, name: string, destination: string, totalLength: number | null, now = Date.now()): Promise<DavUpload | null> {
    const row = await this.db
      .insertInto('dav_uploads')
      .values({ user_id: userId, name, destination, total_length: totalLength, created_at: now, touched_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** The parts received, in the order they will be put together. */
  async parts(upload: DavUpload): Promise<DavPart[]> {
    const prefix = this.prefix(upload);
    const out: DavPart[] = [];
    for await (const o of this.objects.list(prefix)) out.push({ name: o.key.slice(prefix.length), size: o.size, modifiedAt: o.modifiedAt });
    return inOrder(out);
  }

  /**
   * PUT of a part: its bytes streamed into the store (replacing a part of that name), unless it
   * would take the upload past `maxBytes` ('size') or MAX_PARTS ('parts'); whether it is new.
   */
  async putPart(upload: DavUpload, part: string, body: Readable, size: number, totalLength: number | null, maxBytes: number): Promise<'created' | 'replaced' | 'size' | 'parts'> {
    const key = `${this.prefix(upload)}${part}`;
    const before = await this.objects.stat(key);
    if (maxBytes > 0 && Number(upload.received) - (before?.size ?? 0) + size > maxBytes) return 'size';
    if (!before && Number(upload.part_count) >= MAX_PARTS) return 'parts';
    await this.objects.put(key, body, size);
    await this.db
      .updateTable('dav_uploads')
      .set((eb) => ({
        touched_at: Date.now(),
        received: eb(eb.ref('received'), '+', size - (before?.size ?? 0)),
        part_count: eb(eb.ref('part_count'), '+', before ? 0 : 1),
        ...(totalLength !== null ? { total_length: totalLength } : {}),
      }))
      .where('id', '=', upload.id)
      .execute();
    return before ? 'replaced' : 'created';
  }

  async removePart(upload: DavUpload, part: string): Promise<boolean> {
    const key = `${this.prefix(upload)}${part}`;
    const before = await this.objects.stat(key);
    if (!before) return false;
    await this.objects.delete([key]);
    await this.db
      .updateTable('dav_uploads')
      .set((eb) => ({ touched_at: Date.now(), received: eb(eb.ref('received'), '-', before.size), part_count: eb(eb.ref('part_count'), '-', 1) }))
      .where('id', '=', upload.id)
      .execute();
    return true;
  }

  /**
   * The parts, one after another, as one stream: each read from the store only when its turn
   * comes, and nothing read at all unless the stream is (a refusal before the first byte costs
   * nothing).
   */
  assembled(upload: DavUpload, parts: DavPart[]): Readable {
    const objects = this.objects;
    const prefix = this.prefix(upload);
    return Readable.from(
      (async function* () {
        for (const part of parts) yield* await objects.get(`${prefix}${part.name}`);
      })(),
      { objectMode: false },
    );
  }

  /** Removes the upload and its parts. */
  async remove(upload: DavUpload): Promise<void> {
    const keys: string[] = [];
    for await (const o of this.objects.list(this.prefix(upload))) keys.push(o.key);
    for (let i = 0; i < keys.length; i += 1000) await this.objects.delete(keys.slice(i, i + 1000));
    await this.db.deleteFrom('dav_uploads').where('id', '=', upload.id).execute();
  }

  /** Removes the uploads untouched for IDLE_MS; how many. */
  async sweep(now = Date.now()): Promise<number> {
    const stale = await this.db.selectFrom('dav_uploads').selectAll().where('touched_at', '<', now - IDLE_MS).limit(500).execute();
    for (const upload of stale) await this.remove(upload);
    return stale.length;
  }
}
