// Free space on the volume that holds 云文档's data folder. Uploads are refused before they
// would take the last `minFreeBytes` (the database, sign-in and every read keep working on a
// nearly full disk), and administrators are warned while the free space is below
// `warnPercent` of the volume or twice the reserve.
import fs from 'node:fs';
import { AppError } from './errors';

export const STORAGE_FULL_MESSAGE = '服务器存储空间不足，文件未保存，请联系管理员清理空间后重试';

/** HTTP 507, code 50701: the server's storage is (nearly) full. */
export const storageFull = () => new AppError(507, 50701, STORAGE_FULL_MESSAGE);

/** Errors that mean the disk or the database ran out of room. */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}

export type DiskLevel = 'ok' | 'low' | 'full';

export interface DiskStatus {
  total: number;
  free: number;
  /** the reserve uploads never take */
  minFree: number;
  level: DiskLevel;
}

/** How long one statfs is trusted: uploads ask before every chunk. */
const CACHE_MS = 1000;

export class DiskSpace {
  private cached: { at: number; total: number; free: number } | null = null;

  constructor(
    private readonly dir: string,
    public minFreeBytes: number,
    readonly warnPercent: number,
  ) {}

  private async read(): Promise<{ total: number; free: number }> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached;
    await fs.promises.mkdir(this.dir, { recursive: true });
    const s = await fs.promises.statfs(this.dir);
    this.cached = { at: now, total: s.blocks * s.bsize, free: s.bavail * s.bsize };
    return this.cached;
  }

  /** Forgets the last reading (after a write failed for want of room). */
  forget(): void {
    this.cached = null;
  }

  async status(): Promise<DiskStatus> {
    const { total, free } = await this.read();
    const level: DiskLevel =
      free <= this.minFreeBytes ? 'full' : free < Math.max(total * (this.warnPercent / 100), this.minFreeBytes * 2) ? 'low' : 'ok';
    return { total, free, minFree: this.minFreeBytes, level };
  }

  /** 507 when writing `bytes` more would eat into the reserve. */
  async assertRoomFor(bytes: number): Promise<void> {
    const { free } = await this.read();
    if (free - bytes < this.minFreeBytes) throw storageFull();
  }
}
