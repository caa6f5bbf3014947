// 云文档 downloads: one file's content (master or a given version), and zip tasks for folders
// and several items. Rights are checked when the call is made (level 2, 下载): an item the
// caller may not see answers 404, one they may see but not download 403 (40301).
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { badRequest, forbidden, notFound, tooManyRequests } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { findItemsWithOwner, findLiveItem, liveSubtree } from '../folders/repository';
import { LEVEL, type LoadedRights } from '../folders/rights';
import { extensionOf, type FoldersService } from '../folders/service';
import type { BlobStore } from '../versions/blobs';
import { contentTypeOf, type Content } from './http';
import { ZipTasks, type StoredZipEntry, type ZipTask, type ZipTaskOptions } from './tasks';
import { NameScope } from './zip';
import { archiveSource } from './archive-source';
import type { DownloadStatus } from './schemas';
import { objectSource } from '../storage/source';
import type { ObjectStore } from '../storage/store';

const FILE_NOT_FOUND = '文件不存在或已被删除';
const VERSION_NOT_FOUND = '版本不存在或已被删除';
const ITEM_NOT_FOUND = '文件或文件夹不存在或已被删除';
const TASK_NOT_FOUND = '下载任务不存在或已过期，请重新下载';
const NO_DOWNLOAD_RIGHT = '您没有下载该文件的权限';
const NO_DOWNLOAD_RIGHT_ITEMS = '您没有下载所选文件或文件夹的权限';

/** MD5 of empty content: the entity tag of an empty file. */
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';

export interface DownloadLimits {
  /** entries (files and folders) of one archive */
  maxEntries: number;
  /** bytes of the files of one archive, before compression */
  maxBytes: number;
}

export const DEFAULT_LIMITS: DownloadLimits = { maxEntries: 50_000, maxBytes: 20 * 1024 ** 3 };

export interface DownloadsOptions {
  limits?: Partial<DownloadLimits>;
  tasks?: Partial<ZipTaskOptions>;
  log?: (err: unknown, message: string) => void;
}

/** Who may fetch a signed-in user's zip tasks. */
export function userTaskOwner(userId: number): string {
  return `u:${userId}`;
}

/** The path of a zip task's file, from the site root. */
export function taskFileUrl(taskId: string): string {
  return `/api/User/FileTransfer/DownloadTasks/${taskId}/File`;
}

function formatBytes(n: number): string {
  const gb = n / 1024 ** 3;
  return gb >= 1 ? `${Number(gb.toFixed(2))} GB` : `${Number((n / 1024 ** 2).toFixed(2))} MB`;
}

export class DownloadsService {
  readonly tasks: ZipTasks;
  private readonly blobs: BlobStore;
  private readonly objects: ObjectStore;
  readonly limits: DownloadLimits;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    blobs: BlobStore,
    objects: ObjectStore,
    o: DownloadsOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
    this.blobs = blobs;
    this.objects = objects;
    this.tasks = new ZipTasks(db, blobs, objects, o.tasks, o.log);
  }

  private async rightsFor(user: UserRow, rows: ItemRow[], through?: LoadedRights): Promise<{ rights: LoadedRights; rootName: (row: ItemRow) => string }> {
    const { policy, env } = await this.folders.context(user);
    const rights = through ?? (await this.folders.rights.load(user, policy, rows));
    if (through) await through.ensure(rows);
    const rootName = (row: ItemRow) =>
      row.parent_id !== null ? row.name : row.space_type === 1 ? env.publicFolderName : env.personalFolderName;
    return { rights, rootName };
  }

  /**
   * GET /api/User/FileTransfer/Download/{fileId}?versionId=: what to send. `through`: the rights
   * of a share (`user` is its owner); a share gives the master content only.
   */
  async fileContent(user: UserRow, fileIdText: string, versionIdText: string | undefined, through?: LoadedRights): Promise<Content> {
    const id = parseId(fileIdText);
    const item = id === null ? undefined : await findLiveItem(this.db, id);
    if (!item) throw notFound(FILE_NOT_FOUND);
    const { rights } = await this.rightsFor(user, [item], through);
    if (!rights.can(item, LEVEL.preview)) throw notFound(FILE_NOT_FOUND);
    if (through && versionIdText) throw notFound(VERSION_NOT_FOUND);
    if (item.type === 'folder') throw badRequest('文件夹不能直接下载，请使用打包下载');
    if (item.type !== 'file') throw badRequest('快捷方式不能下载，请打开其指向的文件后下载');
    if (!rights.can(item, LEVEL.download)) throw forbidden(NO_DOWNLOAD_RIGHT);

    let q = this.db
      .selectFrom('file_versions')
      .leftJoin('blobs', 'blobs.id', 'file_versions.blob_id')
      .select(['file_versions.id', 'file_versions.size', 'file_versions.md5', 'file_versions.created_at', 'blobs.storage_key'])
      .where('file_versions.item_id', '=', item.id);
    if (versionIdText !== undefined && versionIdText !== '') {
      const versionId = parseId(versionIdText);
      if (versionId === null) throw notFound(VERSION_NOT_FOUND);
      q = q.where('file_versions.id', '=', versionId);
    } else {
      q = q.where('file_versions.is_master', '=', 1);
    }
    const version = await q.executeTakeFirst();
    if (!version) throw notFound(versionIdText ? VERSION_NOT_FOUND : FILE_NOT_FOUND);
    const size = Number(version.size);
    const isMaster = !versionIdText;
    return {
      source: size > 0 && version.storage_key ? this.blobs.source(version.storage_key) : null,
      size,
      etag: `"${version.md5 ?? EMPTY_MD5}-${size}"`,
      // the master is the file's content: it changed when the file did
      lastModifiedMs: isMaster ? Math.max(Number(item.updated_at), Number(version.created_at)) : Number(version.created_at),
      fileName: item.name,
      contentType: contentTypeOf(item.extension || extensionOf(item.name)),
      item,
    };
  }

  /**
   * POST /api/User/FileTransfer/DownloadTask: checks every item now, then queues the archive.
   * Through a share, `user` is its owner, `through` its rights and `owner` who may fetch the task.
   */
  async createTask(user: UserRow, idTexts: string[], through?: { rights: LoadedRights; owner: string }): Promise<{ taskId: string }> {
    const ids: number[] = [];
    for (const text of idTexts) {
      const id = parseId(text);
      if (id === null) throw notFound(ITEM_NOT_FOUND);
      if (!ids.includes(id)) ids.push(id);
    }
    if (!ids.length) throw badRequest('请选择要下载的文件或文件夹');
    const found = (await findItemsWithOwner(this.db, ids)).filter((r) => r.deleted_at === null);
    const byId = new Map(found.map((r) => [r.id, r]));
    const { rights, rootName } = await this.rightsFor(user, found, through?.rights);
    const owner = through?.owner ?? userTaskOwner(user.id);
    const selected: ItemRow[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (!row || !rights.can(row, LEVEL.preview)) throw notFound(ITEM_NOT_FOUND);
      selected.push(row);
    }
    for (const row of selected) {
      if (row.type !== 'file' && row.type !== 'folder') throw badRequest('快捷方式不能打包下载，请打开其指向的位置后下载');
      if (!rights.can(row, LEVEL.download)) throw forbidden(NO_DOWNLOAD_RIGHT_ITEMS);
    }
    if ((await this.tasks.pendingOf(owner)) >= this.tasks.options.maxPendingPerUser) {
      throw tooManyRequests('正在打包的下载任务过多，请等待之前的任务完成后再试', 10);
    }
    // items below another selected folder travel with it
    const top = selected.filter((s) => !selected.some((o) => o !== s && s.id_path.startsWith(`${o.id_path}/`)));
    const entries = await this.entriesOf(top, rights, rootName);
    const first = top[0];
    const firstName = rootName(first);
    const base = first.type === 'file' && extensionOf(firstName) ? firstName.slice(0, firstName.lastIndexOf('.')) : firstName;
    const fileName = top.length === 1 ? `${base}.zip` : `${base}等${top.length}个文件.zip`;
    const task = await this.tasks.create(owner, fileName, entries);
    return { taskId: task.id };
  }

  /**
   * The archive's entries: each selected item at the top; inside folders, the live files and
   * folders the caller may download (a folder left out takes what lies below it along);
   * shortcuts are never followed nor included.
   */
  private async entriesOf(top: ItemRow[], rights: LoadedRights, rootName: (row: ItemRow) => string): Promise<StoredZipEntry[]> {
    const rootScope = new NameScope();
    /** archive path of every folder included, by item id */
    const folderPaths = new Map<number, string>();
    const scopes = new Map<number, NameScope>();
    const plan: { row: ItemRow; path: string }[] = [];
    const tooMany = () => badRequest(`打包下载最多 ${this.limits.maxEntries} 个文件和文件夹，请分批下载`);

    for (const item of top) {
      if (item.type === 'file') {
        plan.push({ row: item, path: rootScope.claim(rootName(item), false) });
        continue;
      }
      const subtree = await liveSubtree(this.db, item);
      if (subtree.length > this.limits.maxEntries) throw tooMany();
      await rights.ensure(subtree);
      // parents come before their children (liveSubtree orders by depth)
      for (const row of subtree) {
        if (row.id === item.id) {
          const p = rootScope.claim(rootName(item), true);
          folderPaths.set(row.id, p);
          scopes.set(row.id, new NameScope());
          plan.push({ row, path: p });
          continue;
        }
        if (row.type !== 'file' && row.type !== 'folder') continue; // shortcuts
        const parentPath = row.parent_id === null ? undefined : folderPaths.get(row.parent_id);
        if (parentPath === undefined) continue; // below a folder left out
        if (!rights.can(row, LEVEL.download)) continue;
        const scope = scopes.get(row.parent_id!)!;
        const p = `${parentPath}/${scope.claim(row.name, row.type === 'folder')}`;
        if (row.type === 'folder') {
          folderPaths.set(row.id, p);
          scopes.set(row.id, new NameScope());
        }
        plan.push({ row, path: p });
      }
    }
    if (plan.length > this.limits.maxEntries) throw tooMany();

    // the master content of every file, in slices
    const fileIds = plan.filter((p) => p.row.type === 'file').map((p) => p.row.id);
    const content = new Map<number, { size: number; storageKey: string | null; blobId: number | null; crc32: number | null }>();
    for (let at = 0; at < fileIds.length; at += 5000) {
      const masters = await this.db
        .selectFrom('file_versions')
        .leftJoin('blobs', 'blobs.id', 'file_versions.blob_id')
        .select(['file_versions.item_id', 'file_versions.size', 'file_versions.blob_id', 'blobs.storage_key', 'blobs.crc32'])
        .where('file_versions.item_id', 'in', fileIds.slice(at, at + 5000))
        .where('file_versions.is_master', '=', 1)
        .execute();
      for (const m of masters) {
        content.set(Number(m.item_id), {
          size: Number(m.size),
          storageKey: m.storage_key ?? null,
          blobId: m.blob_id === null ? null : Number(m.blob_id),
          crc32: m.crc32 === null || m.crc32 === undefined ? null : Number(m.crc32),
        });
      }
    }
    let total = 0;
    const entries: StoredZipEntry[] = plan.map(({ row, path: p }) => {
      const mtimeMs = Number(row.updated_at);
      if (row.type === 'folder') return { kind: 'folder', path: p, mtimeMs };
      const c = content.get(row.id);
      const size = c?.size ?? 0;
      total += size;
      const stored = size > 0 && !!c?.storageKey;
      return { kind: 'file', path: p, mtimeMs, size, storageKey: stored ? c.storageKey : null, blobId: stored ? c.blobId : null, crc32: stored ? c.crc32 : null };
    });
    if (total > this.limits.maxBytes) {
      throw badRequest(`打包下载的文件总大小不能超过 ${formatBytes(this.limits.maxBytes)}，请分批下载`);
    }
    return entries;
  }

  private async task(owner: string, taskId: string): Promise<ZipTask> {
    const task = await this.tasks.get(owner, taskId);
    if (!task) throw notFound(TASK_NOT_FOUND);
    return task;
  }

  /** GET /api/User/FileTransfer/DownloadTasks/{taskId}/Status */
  async status(owner: string, taskId: string, fileUrl: (taskId: string) => string = taskFileUrl): Promise<DownloadStatus> {
    const task = await this.task(owner, taskId);
    return {
      percent: this.tasks.percent(task),
      downloadUrl: task.state === 'ready' ? fileUrl(task.id) : '',
      state: task.state,
      error: task.error,
    };
  }

  /** GET …/DownloadTasks/{taskId}/File: the owner's complete archive. */
  async taskContent(owner: string, taskId: string): Promise<Content> {
    const task = await this.task(owner, taskId);
    if (task.state !== 'ready' || !task.objectKey) throw notFound('压缩包尚未准备好，请稍后再试');
    return {
      source: task.holes
        ? archiveSource(this.objects, task.objectKey, task.size, task.holes, (key, range) => this.blobs.open(key, range))
        : objectSource(this.objects, task.objectKey),
      size: task.size,
      etag: `"zip-${task.id}-${task.size}"`,
      lastModifiedMs: task.finishedAt ?? task.createdAt,
      fileName: task.fileName,
      contentType: 'application/zip',
    };
  }

  close(): Promise<void> {
    return this.tasks.close();
  }
}
