// The tree 云文档 shows over WebDAV (issue 29): /dav/ holds the person's 个人文件 and 企业文件
// (named as the web names them: settings personalFolderName, publicFolderName) and 与我共享
// (the shared items of the internal shares the person received). Rights are the web's own:
// folders/rights.ts decides, through a share its ShareRights; an item the person may not see
// does not exist (404). Shortcuts are not shown (WebDAV has no links).
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { AppError, notFound } from '../../lib/errors';
import { contentTypeOf } from '../downloads/http';
import { findLiveItem, itemNameKey, listChildren, liveNameOwner, findItemsWithOwner } from '../folders/repository';
import { LEVEL, type LoadedRights } from '../folders/rights';
import { extensionOf, numberedName, type FoldersService } from '../folders/service';
import type { EnvironmentConfig, FeaturePolicy } from '../settings/schemas';
import type { QuotaService } from '../quota/service';
import type { ShareScope, SharesService } from '../shares/service';
import type { DavResource } from './props';

/** The folder of the shares a person received. */
export const SHARED_FOLDER_NAME = '与我共享';
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
/** rows read per query when a folder is listed */
export const LIST_PAGE = 500;
/** received shares read for 与我共享 at most (pages of 100) */
const MAX_SHARE_PAGES = 50;

export type DavArea = 'personal' | 'enterprise' | 'share';

export type DavNode =
  | { kind: 'root' }
  | { kind: 'shares' }
  | {
      kind: 'item';
      area: DavArea;
      row: ItemRow;
      rights: LoadedRights;
      /** the names from /dav/ down to the item (the first one a space's or 与我共享) */
      path: string[];
      /** through 与我共享: the share as it works now */
      share?: ShareScope;
    };

/** Who asks, with what the request found out so far. */
export interface DavContext {
  user: UserRow;
  ip: string;
  policy: FeaturePolicy;
  env: EnvironmentConfig;
  quota?: Promise<{ used: number; available: number }>;
}

/** An entry of 与我共享: one shared item of one share, under a name unique in the folder. */
interface SharedEntry {
  shareId: string;
  itemId: number;
  type: string;
  name: string;
}

/** The percent-encoded href of a path below /dav/ (UTF-8, each segment encoded). */
export function hrefOf(path: readonly string[], collection: boolean): string {
  const tail = path.map((s) => encodeURIComponent(s)).join('/');
  return `/dav/${tail}${collection && tail ? '/' : ''}`;
}

/** The names of a request path below /dav/ (percent-decoded, NFC); null when it is not a /dav/ path, holds a fragment or is not valid UTF-8. */
export function pathOf(url: string): string[] | null {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  // a fragment never belongs in a request (a '#' of a name is sent as %23): refused, not cut off
  if (raw.includes('#') || (raw !== '/dav' && !raw.startsWith('/dav/'))) return null;
  const out: string[] = [];
  for (const part of raw.slice(4).split('/')) {
    if (!part) continue;
    let name: string;
    try {
      name = decodeURIComponent(part);
    } catch {
      return null;
    }
    out.push(name.normalize('NFC'));
  }
  return out;
}

const gone = () => notFound('文件或文件夹不存在');

export class DavTree {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly shares: SharesService,
    private readonly quotas: QuotaService,
  ) {}

  async context(user: UserRow, ip: string): Promise<DavContext> {
    const { policy, env } = await this.folders.context(user);
    return { user, ip, policy, env };
  }

  /** RFC 4331 from the person's own quota: used, and what is left (the data volume's free space when unlimited). */
  quota(ctx: DavContext): Promise<{ used: number; available: number }> {
    ctx.quota ??= (async () => {
      const [usage, policy] = await Promise.all([this.quotas.usage(ctx.user), this.quotas.policy(ctx.user)]);
      const used = usage.used + usage.uploading;
      if (policy.quota) return { used: usage.used, available: Math.max(0, policy.quota - used) };
      const disk = await this.quotas.diskStatus();
      return { used: usage.used, available: Math.max(0, disk.free - disk.minFree) };
    })();
    return ctx.quota;
  }

  /** The space roots the person sees at /dav/, in order. */
  private async spaceRoots(ctx: DavContext): Promise<{ area: DavArea; name: string; row: ItemRow; rights: LoadedRights }[]> {
    const out: { area: DavArea; name: string; row: ItemRow; rights: LoadedRights }[] = [];
    for (const [area, name, roots] of [
      ['personal', ctx.env.personalFolderName, await this.folders.personalRoots(ctx.user)],
      ['enterprise', ctx.env.publicFolderName, await this.folders.publicRoots(ctx.user)],
    ] as const) {
      if (!roots.length) continue;
      const row = await findLiveItem(this.db, Number(roots[0].id));
      if (!row) continue;
      const rights = await this.folders.rights.load(ctx.user, ctx.policy, [row]);
      if (rights.can(row, LEVEL.preview)) out.push({ area, name, row, rights });
    }
    return out;
  }

  /**
   * 与我共享's entries: every shared item of every internal share received, the oldest share
   * first, so that a name already shown keeps its place; a name met again gets `（n）`.
   */
  private async sharedEntries(ctx: DavContext): Promise<SharedEntry[]> {
    const records: Awaited<ReturnType<SharesService['received']>>['data'] = [];
    for (let page = 1; page <= MAX_SHARE_PAGES; page++) {
      const { data, total } = await this.shares.received(ctx.user, page, 100);
      records.push(...data);
      if (page * 100 >= total) break;
    }
    records.reverse();
    const taken = new Set<string>();
    const out: SharedEntry[] = [];
    for (const record of records) {
      for (const item of record.items) {
        if (item.type === 'shortcut') continue;
        const base = item.name || '未命名';
        let name = base;
        for (let n = 2; taken.has(itemNameKey(name)); n++) name = numberedName(base, item.type, n);
        taken.add(itemNameKey(name));
        out.push({ shareId: record.shareId, itemId: Number(item.id), type: item.type, name });
      }
    }
    return out;
  }

  /** The node a path names, else 404 (an item the person may not see is not there). */
  async resolve(ctx: DavContext, path: readonly string[]): Promise<DavNode> {
    if (!path.length) return { kind: 'root' };
    const [top, ...rest] = path;
    const key = itemNameKey(top);
    let node: Extract<DavNode, { kind: 'item' }>;
    let below: string[] = rest;
    if (key === itemNameKey(SHARED_FOLDER_NAME)) {
      if (!rest.length) return { kind: 'shares' };
      const entry = (await this.sharedEntries(ctx)).find((e) => itemNameKey(e.name) === itemNameKey(rest[0]));
      if (!entry) throw gone();
      let scope: ShareScope;
      try {
        scope = await this.shares.open(entry.shareId, { user: ctx.user, address: ctx.ip });
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 401) throw gone();
        throw err;
      }
      const root = scope.roots.find((r) => r.id === entry.itemId);
      if (!root) throw gone();
      node = { kind: 'item', area: 'share', row: root, rights: scope.rights, path: [SHARED_FOLDER_NAME, entry.name], share: scope };
      below = rest.slice(1);
    } else {
      const space = (await this.spaceRoots(ctx)).find((s) => itemNameKey(s.name) === key);
      if (!space) throw gone();
      node = { kind: 'item', area: space.area, row: space.row, rights: space.rights, path: [space.name] };
    }
    for (const name of below) {
      if (node.row.type !== 'folder') throw gone();
      const child = await liveNameOwner(this.db, node.row.id, itemNameKey(name));
      if (!child || child.type === 'shortcut') throw gone();
      await node.rights.ensure([child]);
      if (!node.rights.can(child, LEVEL.preview)) throw gone();
      node = { ...node, row: child, path: [...node.path, child.name] };
    }
    return node;
  }

  /** The resource of a node (one query for a file's master version). */
  async resource(ctx: DavContext, node: DavNode): Promise<DavResource> {
    if (node.kind === 'root') return { href: '/dav/', collection: true, displayName: 'WebDAV', quota: await this.quota(ctx) };
    if (node.kind === 'shares') return { href: hrefOf([SHARED_FOLDER_NAME], true), collection: true, displayName: SHARED_FOLDER_NAME };
    const masters = await this.masters(node.row.type === 'file' ? [node.row.id] : []);
    const quota = node.area === 'personal' && node.row.type === 'folder' ? await this.quota(ctx) : undefined;
    return this.itemResource(node.path, node.row, masters.get(node.row.id), quota);
  }

  /**
   * A collection's members, a page at a time: a folder is read through listChildren (one sorted
   * index range per page, the rights of a page in one query), never item by item.
   */
  async *children(ctx: DavContext, node: DavNode): AsyncGenerator<DavResource[]> {
    if (node.kind === 'root') {
      const out: DavResource[] = [];
      for (const space of await this.spaceRoots(ctx)) {
        out.push(this.itemResource([space.name], space.row, undefined, space.area === 'personal' ? await this.quota(ctx) : undefined));
      }
      out.push(await this.resource(ctx, { kind: 'shares' }));
      yield out;
      return;
    }
    if (node.kind === 'shares') {
      const entries = await this.sharedEntries(ctx);
      for (let at = 0; at < entries.length; at += LIST_PAGE) {
        const slice = entries.slice(at, at + LIST_PAGE);
        const rows = new Map((await findItemsWithOwner(this.db, slice.map((e) => e.itemId))).map((r) => [r.id, r]));
        const masters = await this.masters(slice.filter((e) => e.type === 'file').map((e) => e.itemId));
        const page: DavResource[] = [];
        for (const e of slice) {
          const row = rows.get(e.itemId);
          if (row && row.deleted_at === null) page.push(this.itemResource([SHARED_FOLDER_NAME, e.name], row, masters.get(row.id)));
        }
        yield page;
      }
      return;
    }
    if (node.row.type !== 'folder') return;
    const { rights, row: folder } = node;
    const hideFrom = rights.level(folder) < LEVEL.manage ? await rights.loadCaller() : undefined;
    const quota = node.area === 'personal' ? await this.quota(ctx) : undefined;
    for (let offset = 0; ; offset += LIST_PAGE) {
      const { rows, total } = await listChildren(this.db, folder, { offset, limit: LIST_PAGE, sortField: 'name', sortOrder: 'asc', keyword: '', hideFrom });
      if (!rows.length) return;
      await rights.ensure(rows);
      const visible = rows.filter((r) => r.type !== 'shortcut' && rights.can(r, LEVEL.preview));
      const masters = await this.masters(visible.filter((r) => r.type === 'file').map((r) => r.id));
      yield visible.map((r) => this.itemResource([...node.path, r.name], r, masters.get(r.id), r.type === 'folder' ? quota : undefined));
      if (offset + rows.length >= total) return;
    }
  }

  /** The master versions of files: what GET sends (size, entity tag, date). */
  private async masters(ids: number[]): Promise<Map<number, { md5: string | null; size: number; created_at: number }>> {
    const out = new Map<number, { md5: string | null; size: number; created_at: number }>();
    if (!ids.length) return out;
    const rows = await this.db
      .selectFrom('file_versions')
      .select(['item_id', 'md5', 'size', 'created_at'])
      .where('item_id', 'in', ids)
      .where('is_master', '=', 1)
      .execute();
    for (const r of rows) out.set(Number(r.item_id), { md5: r.md5, size: Number(r.size), created_at: Number(r.created_at) });
    return out;
  }

  private itemResource(path: string[], row: ItemRow, master?: { md5: string | null; size: number; created_at: number }, quota?: { used: number; available: number }): DavResource {
    const displayName = path[path.length - 1];
    if (row.type === 'folder') {
      return { href: hrefOf(path, true), collection: true, displayName, lastModified: Number(row.updated_at), created: Number(row.created_at), quota, itemId: row.id, idPath: row.id_path };
    }
    const size = master ? master.size : Number(row.size);
    return {
      href: hrefOf(path, false),
      collection: false,
      displayName,
      size,
      contentType: contentTypeOf(row.extension || extensionOf(row.name)),
      // as downloads/service.ts fileContent: the master's MD5 and size, its date or the file's
      etag: `"${master?.md5 ?? EMPTY_MD5}-${size}"`,
      lastModified: master ? Math.max(Number(row.updated_at), master.created_at) : Number(row.updated_at),
      created: Number(row.created_at),
      itemId: row.id,
      idPath: row.id_path,
    };
  }
}
