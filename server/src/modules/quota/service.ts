// 云文档 personal space use against its quota (the usage bar of the personal space), and the
// data volume's free space (administrators are warned before it fills).
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import type { DiskSpace, DiskStatus } from '../../lib/disk-space';
import type { SettingsService } from '../settings/service';
import { reservedFor } from '../uploads/repository';
import { largestOwners, largestTopFolders, personalBytes, storageTotals } from './repository';
import { SPACE_PERSONAL } from '../folders/rights';
import { assertSystemAdmin } from '../users/service';
import type { PersonalPolicy, PersonalUsage, QuotaOverview } from './schemas';

export class QuotaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly disk: DiskSpace,
    /** open upload sessions older than this many ms reserve nothing */
    private readonly sessionTtlMs: () => number,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  /** 系统管理 → 空间与配额: totals by space, what deduplication saves, the largest people and first-level folders. */
  async overview(caller: UserRow): Promise<QuotaOverview> {
    assertSystemAdmin(caller);
    const [totals, owners, folders, policy, uploading] = await Promise.all([
      storageTotals(this.db),
      largestOwners(this.db, 10),
      largestTopFolders(this.db, this.dialect, 10),
      this.settings.uploadPolicy(),
      this.db
        .selectFrom('upload_sessions')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('n'))
        .where('status', 'in', ['open', 'merging'])
        .where('updated_at', '>=', Date.now() - this.sessionTtlMs())
        .executeTakeFirst(),
    ]);
    const largestUsers = [];
    for (const o of owners) {
      largestUsers.push({ userId: String(o.id), userName: o.user_name, nickName: o.nick_name, used: Number(o.bytes), quota: await this.settings.quotaFor(Number(o.id)) });
    }
    return {
      defaultQuota: policy.personalQuota,
      totals: { personal: totals.personal, public: totals.public, recycleBin: totals.recycleBin, uploading: Number(uploading?.n ?? 0) },
      dedup: { logical: totals.logical, stored: totals.stored, saved: Math.max(0, totals.logical - totals.stored) },
      largestUsers,
      largestFolders: folders.map((f) => ({ id: String(f.id), name: f.name, space: f.spaceType === SPACE_PERSONAL ? 'personal' : 'public', ownerName: f.ownerName, size: f.bytes })),
    };
  }

  async usage(user: UserRow): Promise<PersonalUsage> {
    const { all, recycled } = await personalBytes(this.db, user.id);
    const uploading = await reservedFor(this.db, user.id, Date.now() - this.sessionTtlMs());
    return { used: all, recycleBin: recycled, uploading };
  }

  async policy(user: UserRow): Promise<PersonalPolicy> {
    const quota = await this.settings.quotaFor(user.id);
    return { quota, unlimited: !quota };
  }

  diskStatus(): Promise<DiskStatus> {
    return this.disk.status();
  }
}
