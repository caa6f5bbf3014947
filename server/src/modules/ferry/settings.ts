// The ferry settings of 云文档 (/swapSpace/setFerry): the allowed directions between this zone and
// its peers with the approval flow of each, the filters (each switched on and off on its own, as
// cross-domain guidance asks), the expiry of received files and the audit retention. Stored as
// one JSON setting; every change is written to the audit log with what changed.
import type { Kysely } from 'kysely';
import type { FerryConfig } from '../../config';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { readSetting, writeSetting } from '../settings/repository';
import { appendAudit } from './audit';
import { DEFAULT_ALLOWED_TYPES, KNOWN_TYPES } from './filetype';
import type { FerryDirection, FerrySettings } from './schemas';

const MB = 1024 * 1024;
export const MIN_AUDIT_RETENTION_DAYS = 180;
export const MAX_KEYWORDS = 1000;
export const MAX_FILE_COUNT = 500;

export const DEFAULT_FERRY_SETTINGS: FerrySettings = {
  directions: [],
  typeCheck: true,
  allowedTypes: DEFAULT_ALLOWED_TYPES,
  sizeCheck: true,
  maxFileSize: 1024 * MB,
  maxTotalSize: 5 * 1024 * MB,
  countCheck: true,
  maxFileCount: 100,
  keywordCheck: false,
  keywords: [],
  antivirus: true,
  expiryDays: 7,
  auditRetentionDays: 180,
};

/**
 * Every direction between this zone and a peer, both ways, and from each one-way sender
 * (FERRY_ACCEPT_FROM) to here; a stored choice wins over the default (enabled, default flow).
 */
export function directionsFor(config: FerryConfig, stored: readonly FerryDirection[]): FerryDirection[] {
  const pairs: Array<[string, string]> = [
    ...config.peers.flatMap((p) => [
      [config.zone, p.zone] as [string, string],
      [p.zone, config.zone] as [string, string],
    ]),
    ...config.acceptFrom.map((z) => [z, config.zone] as [string, string]),
  ];
  return pairs.map(([from, to]) => {
    const saved = stored.find((d) => d.from === from && d.to === to);
    return { from, to, enabled: saved?.enabled ?? true, definitionId: saved?.definitionId ?? '' };
  });
}

const cleanList = (values: readonly string[], max: number, label: string): string[] => {
  const out = [...new Set(values.map((v) => v.trim()).filter(Boolean))];
  if (out.length > max) throw badRequest(`${label}最多 ${max} 个`);
  return out;
};

export class FerrySettingsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: FerryConfig,
  ) {}

  async get(): Promise<FerrySettings> {
    const stored = ((await readSetting(this.db, 'ferrySettings')) ?? {}) as Partial<FerrySettings>;
    const merged: FerrySettings = { ...DEFAULT_FERRY_SETTINGS, ...stored };
    merged.directions = directionsFor(this.config, stored.directions ?? []);
    return merged;
  }

  /** The direction from → to, when it is configured and switched on. */
  async direction(from: string, to: string): Promise<FerryDirection | null> {
    const d = (await this.get()).directions.find((x) => x.from === from && x.to === to);
    return d?.enabled ? d : null;
  }

  /** Checks and stores the settings; `definitionExists` says whether a flow id names an enabled flow. */
  async save(user: UserRow, body: FerrySettings, definitionExists: (id: string) => Promise<boolean>): Promise<FerrySettings> {
    const before = await this.get();
    const known = directionsFor(this.config, []);
    const directions: FerryDirection[] = [];
    for (const d of body.directions) {
      if (!known.some((k) => k.from === d.from && k.to === d.to)) throw badRequest(`方向“${d.from} → ${d.to}”不是本区域与已配置的对端区域之间的方向`);
      if (d.definitionId && !(await definitionExists(d.definitionId))) throw badRequest(`方向“${d.from} → ${d.to}”的审批流程不存在或已停用`);
      directions.push({ from: d.from, to: d.to, enabled: d.enabled, definitionId: d.definitionId });
    }
    const allowedTypes = cleanList(body.allowedTypes, 200, '允许的类型').map((t) => t.toLowerCase());
    const unknown = allowedTypes.filter((t) => !(t in KNOWN_TYPES));
    if (unknown.length) throw badRequest(`不认识的文件类型：${unknown.join('、')}`);
    if (body.typeCheck && !allowedTypes.length) throw badRequest('开启类型白名单时至少要允许一种类型');
    if (!Number.isSafeInteger(body.maxFileSize) || body.maxFileSize < 1) throw badRequest('单个文件大小上限必须是正整数（字节）');
    if (!Number.isSafeInteger(body.maxTotalSize) || body.maxTotalSize < 1) throw badRequest('每次摆渡总大小上限必须是正整数（字节）');
    if (!Number.isInteger(body.maxFileCount) || body.maxFileCount < 1 || body.maxFileCount > MAX_FILE_COUNT) {
      throw badRequest(`每次摆渡的文件数量上限必须在 1–${MAX_FILE_COUNT} 之间`);
    }
    const keywords = cleanList(body.keywords, MAX_KEYWORDS, '敏感词');
    if (keywords.some((k) => [...k].length > 50)) throw badRequest('每个敏感词不能超过 50 个字符');
    if (body.keywordCheck && !keywords.length) throw badRequest('开启敏感词检查时至少要填写一个敏感词');
    if (!Number.isInteger(body.expiryDays) || body.expiryDays < 1 || body.expiryDays > 365) throw badRequest('过期天数必须在 1–365 之间');
    if (!Number.isInteger(body.auditRetentionDays) || body.auditRetentionDays < MIN_AUDIT_RETENTION_DAYS || body.auditRetentionDays > 36500) {
      throw badRequest(`审计日志至少保留 ${MIN_AUDIT_RETENTION_DAYS} 天（网络安全法要求网络日志至少保存六个月）`);
    }
    const next: FerrySettings = {
      directions,
      typeCheck: body.typeCheck,
      allowedTypes,
      sizeCheck: body.sizeCheck,
      maxFileSize: body.maxFileSize,
      maxTotalSize: body.maxTotalSize,
      countCheck: body.countCheck,
      maxFileCount: body.maxFileCount,
      keywordCheck: body.keywordCheck,
      keywords,
      antivirus: body.antivirus,
      expiryDays: body.expiryDays,
      auditRetentionDays: body.auditRetentionDays,
    };
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    const merged = { ...next, directions: directionsFor(this.config, directions) };
    for (const key of Object.keys(next) as Array<keyof FerrySettings>) {
      if (JSON.stringify(before[key]) !== JSON.stringify(merged[key])) changed[key] = { from: before[key], to: merged[key] };
    }
    await this.db.transaction().execute(async (trx) => {
      await writeSetting(trx, 'ferrySettings', next, Date.now());
      if (Object.keys(changed).length) {
        await appendAudit(trx, { event: 'settings.changed', actorId: user.id, actorName: user.nick_name || user.user_name, taskId: '', detail: { changed } });
      }
    });
    return this.get();
  }
}
