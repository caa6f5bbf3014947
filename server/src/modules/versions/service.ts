// 云文档 file versions: listing, rolling back to a version, choosing the master, deleting.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import { findLiveItem, type ItemWithOwner } from '../folders/repository';
import { LEVEL } from '../folders/rights';
import type { FoldersService } from '../folders/service';
import type { BlobStore } from './blobs';
import { addMasterVersion, dropVersion, findVersion, listVersions, type VersionWithCreator } from './repository';
import type { Version } from './schemas';

const FILE_NOT_FOUND = '文件不存在或已被删除';
const VERSION_NOT_FOUND = '版本不存在或已被删除';

export class VersionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly blobs: BlobStore,
    private readonly formatTime: TimeFormatter,
  ) {}

  private toVersion(row: VersionWithCreator): Version {
    return {
      id: String(row.id),
      fileId: String(row.item_id),
      version: Number(row.version_no),
      size: Number(row.size),
      md5: row.md5,
      isMaster: Number(row.is_master) === 1,
      creatorId: String(row.creator_id),
      creatorName: row.creator_name,
      createdAt: this.formatTime(row.created_at),
    };
  }

  private async list(fileId: number): Promise<Version[]> {
    return (await listVersions(this.db, fileId)).map((v) => this.toVersion(v));
  }

  /** A live file the caller may see (else 404), and whether they may change its versions. */
  private async file(user: UserRow, id: number | null): Promise<{ file: ItemWithOwner; mayChange: boolean }> {
    const file = id === null ? undefined : await findLiveItem(this.db, id);
    if (!file || file.type !== 'file') throw notFound(FILE_NOT_FOUND);
    const { policy } = await this.folders.context(user);
    const rights = await this.folders.rights.load(user, policy, [file]);
    if (!rights.can(file, LEVEL.preview)) throw notFound(FILE_NOT_FOUND);
    return { file, mayChange: rights.can(file, LEVEL.edit) };
  }

  /** The version and its live file, if the caller may see the file (else 404). */
  private async version(user: UserRow, idText: string) {
    const id = parseId(idText);
    const version = id === null ? undefined : await findVersion(this.db, id);
    if (!version) throw notFound(VERSION_NOT_FOUND);
    const found = await this.file(user, Number(version.item_id)).catch((err: unknown) => {
      throw err instanceof AppError && err.statusCode === 404 ? notFound(VERSION_NOT_FOUND) : err;
    });
    return { version, ...found };
  }

  /** GET /api/User/Files/{id}/Versions: newest first. */
  async versions(user: UserRow, fileIdText: string): Promise<Version[]> {
    const { file } = await this.file(user, parseId(fileIdText));
    return this.list(file.id);
  }

  /** POST /api/User/Files/{fileId}/VersionRollback/{id}: a new master with the content of version {id}. */
  async rollback(user: UserRow, fileIdText: string, versionIdText: string): Promise<Version[]> {
    const { file, mayChange } = await this.file(user, parseId(fileIdText));
    const versionId = parseId(versionIdText);
    const source = versionId === null ? undefined : await findVersion(this.db, versionId);
    if (!source || Number(source.item_id) !== file.id) throw notFound(VERSION_NOT_FOUND);
    if (!mayChange) throw forbidden('您没有修改该文件版本的权限');
    await this.db.transaction().execute(async (trx) => {
      const still = await findVersion(trx, source.id);
      if (!still || !(await findLiveItem(trx, file.id))) throw notFound(VERSION_NOT_FOUND);
      await addMasterVersion(trx, file.id, { blobId: still.blob_id, size: Number(still.size), md5: still.md5 }, user.id, Date.now());
    });
    return this.list(file.id);
  }

  /** POST /api/User/Files/Versions/{id}/SetMaster?isMaster=: the version becomes the file's content. */
  async setMaster(user: UserRow, versionIdText: string, isMaster: boolean): Promise<Version[]> {
    const { version, file, mayChange } = await this.version(user, versionIdText);
    if (!mayChange) throw forbidden('您没有修改该文件版本的权限');
    if (!isMaster) {
      if (Number(version.is_master) === 1) throw badRequest('文件必须保留一个主版本');
      return this.list(file.id);
    }
    if (Number(version.is_master) !== 1) {
      await this.db.transaction().execute(async (trx) => {
        const still = await findVersion(trx, version.id);
        if (!still || !(await findLiveItem(trx, file.id))) throw notFound(VERSION_NOT_FOUND);
        const now = Date.now();
        await trx.updateTable('file_versions').set({ is_master: 0 }).where('item_id', '=', file.id).where('is_master', '=', 1).execute();
        await trx.updateTable('file_versions').set({ is_master: 1 }).where('id', '=', version.id).execute();
        // the file's content is now this version's
        await trx.updateTable('items').set({ size: Number(still.size), updated_at: now }).where('id', '=', file.id).execute();
      });
    }
    return this.list(file.id);
  }

  /** DELETE /api/User/Files/Versions/{id}: any version but the master. */
  async remove(user: UserRow, versionIdText: string): Promise<Version[]> {
    const { version, file, mayChange } = await this.version(user, versionIdText);
    if (!mayChange) throw forbidden('您没有删除该文件版本的权限');
    if (Number(version.is_master) === 1) throw badRequest('不能删除主版本');
    const gone = await this.db.transaction().execute(async (trx) => {
      const still = await findVersion(trx, version.id);
      if (!still) throw notFound(VERSION_NOT_FOUND);
      if (Number(still.is_master) === 1) throw badRequest('不能删除主版本');
      return dropVersion(trx, still);
    });
    await this.blobs.remove(gone);
    return this.list(file.id);
  }
}
