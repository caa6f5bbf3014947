// 云文档 personal space use against its quota (the usage bar of the personal space), and the
// data volume's free space (administrators are warned before it fills).
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import type { DiskSpace, DiskStatus } from '../../lib/disk-space';
import type { SettingsService } from '../settings/service';
import { reservedFor } from '../uploads/repository';
import { personalBytes } from './repository';
import type { PersonalPolicy, PersonalUsage } from './schemas';

export class QuotaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly disk: DiskSpace,
    /** open upload sessions older than this many ms reserve nothing */
    private readonly sessionTtlMs: () => number,
  ) {}

  async usage(user: UserRow): Promise<PersonalUsage> {
    const { all, recycled } = await personalBytes(this.db, user.id);
    const uploading = await reservedFor(this.db, user.id, Date.now() - this.sessionTtlMs());
    return { used: all, recycleBin: recycled, uploading };
  }

  async policy(): Promise<PersonalPolicy> {
    const quota = (await this.settings.uploadPolicy()).personalQuota;
    return { quota, unlimited: !quota };
  }

  diskStatus(): Promise<DiskStatus> {
    return this.disk.status();
  }
}
