// 云文档 sharing (api-contract.md, "Sharing"; docs/integration.md, "Sharing"). A share gives its
// recipients (internal) or whoever holds its link and key (external) the share's level on the
// shared items and below them, never more than the creator holds at the time of each request.
// Everything is checked again on every request: cancelled, expired, the download limit used up,
// the creator disabled or without the right, the items in the recycle bin.
import { appendEntries } from '../oplog/repository';
import type { Kysely, Updateable } from 'kysely';
import type { Database, ShareRow, SharesTable, UserRow } from '../../db/types';
import { recordEvent as recordNoticeEvent } from '../notices/events';
import { resolveNotices } from '../notices/repository';
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { parseDateTime, type TimeFormatter } from '../../lib/time';
import { findItemsWithOwner, type ItemWithOwner } from '../folders/repository';
import { LEVEL, loadCaller, withinItem, type Level, type ShareRights } from '../folders/rights';
import type { FoldersService } from '../folders/service';
import type { Item, ItemsQuery, FolderItems } from '../folders/schemas';
import type { EnvironmentConfig, FeaturePolicy } from '../settings/schemas';
import type { SettingsService } from '../settings/service';
import { findUserById } from '../users/repository';
import {
  accessKeyMatches,
  cancelShares,
  countVisit,
  findOwnShare,
  findShare,
  hashAccessKey,
  insertShare,
  itemIdsOf,
  keyFailuresSince,
  randomAccessKey,
  recordEvent,
  recordKeyFailure,
  replaceTargets,
  SHARE_EXTERNAL,
  SHARE_ID,
  SHARE_INTERNAL,
  takeDownload,
  TARGET,
  targetsOf,
  type ShareTarget,
} from './repository';
import type { CreateShareBody, OutsourceInfo, OutsourceItemsQuery, ShareEvent, ShareRecord, UpdateShareBody } from './schemas';

export const SHARE_GONE = '指定的分享不存在或已过期。';
/** Envelope 401 with the share message: the page shows it instead of signing anyone out (spec 8). */
export const shareGone = () => new AppError(401, 401, SHARE_GONE);
export const wrongKey = () => new AppError(403, 40302, '提取码错误');
const keyMissing = () => new AppError(403, 40302, '请输入提取码');

const STATUS = { valid: 1, expired: 2, cancelled: 3 } as const;
const KEY_PATTERN = /^[A-Za-z0-9]{4,16}$/;

export interface ShareThrottle {
  /** wrong keys from one address for one share within the window */
  addressLimit: number;
  /** wrong keys for one share from all addresses within the window (a ceiling, never a permanent lock) */
  shareLimit: number;
  windowMs: number;
}

export const DEFAULT_SHARE_THROTTLE: ShareThrottle = { addressLimit: 5, shareLimit: 50, windowMs: 15 * 60 * 1000 };

/** Who is asking through a share. */
export interface ShareVisitor {
  /** the signed-in caller (internal shares); null for an outside visitor */
  user: UserRow | null;
  /** the key given (external shares) */
  accessKey?: string | null;
  address: string;
}

/** A share that works for this request, with the rights it gives. */
export interface ShareScope {
  share: ShareRow;
  owner: UserRow;
  policy: FeaturePolicy;
  env: EnvironmentConfig;
  /** the shared items that are live and that the creator may still share, in the share's order */
  roots: ItemWithOwner[];
  rights: ShareRights;
  visitor: ShareVisitor;
}

export function shareUrl(share: Pick<ShareRow, 'id' | 'share_type'>): string {
  return Number(share.share_type) === SHARE_EXTERNAL ? `/s/${share.id}` : '';
}

function firstOf(value: string | string[] | undefined | null): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' ? v : null;
}

export class SharesService {
  readonly throttle: ShareThrottle;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly settings: SettingsService,
    private readonly formatTime: TimeFormatter,
    private readonly tzName: string,
    throttle: Partial<ShareThrottle> = {},
  ) {
    this.throttle = { ...DEFAULT_SHARE_THROTTLE, ...throttle };
  }

  // ---- the creator's calls ----------------------------------------------------------------

  private expiry(text: string | null | undefined, now: number): number | null {
    if (text === null || text === undefined || text.trim() === '') return null;
    const at = parseDateTime(text, this.tzName);
    if (at === null) throw badRequest('有效期格式应为 YYYY-MM-DD HH:mm:ss');
    if (at <= now) throw badRequest('有效期必须晚于当前时间');
    return at;
  }

  private accessKeyOf(text: string | null | undefined): string {
    const key = (text ?? '').trim();
    if (!key) return randomAccessKey();
    if (!KEY_PATTERN.test(key)) throw badRequest('提取码应为 4 至 16 位字母或数字');
    return key;
  }

  /** Recipients that exist (users not disabled); a bad one refuses the whole call. */
  private async validTargets(targets: { type: number; id: string }[], creatorId: number): Promise<ShareTarget[]> {
    const out: ShareTarget[] = [];
    const seen = new Set<string>();
    for (const t of targets) {
      const id = parseId(t.id);
      if (id === null) throw badRequest('分享对象不存在');
      const key = `${t.type}:${id}`;
      if (seen.has(key) || (t.type === TARGET.user && id === creatorId)) continue;
      seen.add(key);
      out.push({ type: t.type, id });
    }
    const ids = (type: number) => out.filter((t) => t.type === type).map((t) => t.id);
    const count = async (table: 'users' | 'departments' | 'groups', list: number[]) => {
      if (!list.length) return 0;
      let q = this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', list);
      if (table === 'users') q = q.where('disabled', '=', 0);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    for (const [type, table, message] of [
      [TARGET.user, 'users', '分享对象中有不存在或已停用的用户'],
      [TARGET.department, 'departments', '分享对象中有不存在的部门'],
      [TARGET.group, 'groups', '分享对象中有不存在的用户组'],
    ] as const) {
      const list = ids(type);
      if ((await count(table, list)) !== list.length) throw badRequest(message);
    }
    return out;
  }

  /** The items a user shares: visible (else 404), files or folders, and held at `level` or more (else 403). */
  private async shareableItems(user: UserRow, ids: string[], level: number): Promise<ItemWithOwner[]> {
    const { policy } = await this.folders.context(user);
    const unique = [...new Set(ids)];
    const { items, rights } = await this.folders.itemsAndRights(user, unique, policy);
    for (const item of items) {
      if (item.type !== 'file' && item.type !== 'folder') throw badRequest('快捷方式不能分享，请分享其指向的文件或文件夹');
      if (item.parent_id === null && item.space_type === 1) throw badRequest('企业空间的根目录不能分享');
      if (!rights.can(item, level as Level)) throw forbidden('您对所选文件或文件夹的权限低于要分享的权限，不能分享');
    }
    return items;
  }

  /** runs after a share that tells people was made (the notice dispatcher is nudged) */
  afterShare: (() => void) | null = null;

  /** POST /api/User/Shares */
  async create(user: UserRow, body: CreateShareBody): Promise<{ shareId: string; url: string; accessKey: string }> {
    const now = Date.now();
    const items = await this.shareableItems(user, body.fileIds, body.level);
    const expiresAt = this.expiry(body.expireAt, now);
    let targets: ShareTarget[] = [];
    let accessKey = '';
    if (body.shareType === SHARE_INTERNAL) {
      targets = await this.validTargets(body.targets ?? [], user.id);
      if (!targets.length) throw badRequest('请选择分享给哪些用户、部门或用户组');
    } else {
      accessKey = this.accessKeyOf(body.accessKey);
    }
    const row = await insertShare(this.db, {
      ownerId: user.id,
      itemIds: items.map((i) => i.id),
      shareType: body.shareType,
      level: body.level,
      accessKey: accessKey || null,
      expiresAt,
      downloadLimit: body.downloadLimit ?? null,
      targets,
      now,
      // the people it reaches are told (notices/dispatcher.ts works out who they are)
      also: targets.length
        ? (trx, share) =>
            recordNoticeEvent(
              trx,
              'share.received',
              { shareId: share.id, ownerId: user.id, itemNames: items.slice(0, 3).map((i) => i.name), itemCount: items.length, level: body.level, targets },
              now,
            )
        : undefined,
    });
    this.afterShare?.();
    return { shareId: row.id, url: shareUrl(row), accessKey };
  }

  /** PUT /api/User/Shares/{shareId}: the creator's own, not cancelled (else 404). */
  async update(user: UserRow, shareId: string, body: UpdateShareBody): Promise<ShareRecord & { accessKey: string }> {
    const share = SHARE_ID.test(shareId) ? await findOwnShare(this.db, user.id, shareId) : undefined;
    if (!share || share.deleted) throw notFound(SHARE_GONE);
    const now = Date.now();
    const set: Updateable<SharesTable> = { updated_at: now };
    if (body.level !== undefined) {
      const ids = (await itemIdsOf(this.db, [share.id])).get(share.id) ?? [];
      const live = (await findItemsWithOwner(this.db, ids)).filter((r) => r.deleted_at === null);
      if (live.length) await this.shareableItems(user, live.map((r) => String(r.id)), body.level);
      set.level = body.level;
      set.allow_upload = body.level >= LEVEL.edit ? 1 : 0;
    }
    if (body.expireAt !== undefined) set.expires_at = this.expiry(body.expireAt, now);
    if (body.downloadLimit !== undefined) set.download_limit = body.downloadLimit;
    let accessKey = '';
    const external = Number(share.share_type) === SHARE_EXTERNAL;
    if (body.accessKey !== undefined && body.accessKey !== null) {
      if (!external) throw badRequest('内部分享没有提取码');
      accessKey = this.accessKeyOf(body.accessKey);
      set.access_key_hash = hashAccessKey(accessKey);
    }
    let targets: ShareTarget[] | null = null;
    if (body.targets !== undefined) {
      if (external) throw badRequest('外链分享没有分享对象');
      targets = await this.validTargets(body.targets, user.id);
      if (!targets.length) throw badRequest('请选择分享给哪些用户、部门或用户组');
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('shares').set(set).where('id', '=', share.id).execute();
      if (targets) await replaceTargets(trx, share.id, targets);
    });
    const updated = await findOwnShare(this.db, user.id, share.id);
    const [record] = await this.records([updated!], now);
    return { ...record, accessKey };
  }

  /** DELETE /api/User/Shares: every id must be the caller's share (else 404 and nothing changes). */
  async cancel(user: UserRow, ids: string[]): Promise<{ cancelled: number }> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => !SHARE_ID.test(id))) throw notFound(SHARE_GONE);
    const own = await this.db.selectFrom('shares').select('id').where('id', 'in', unique).where('owner_id', '=', user.id).execute();
    if (own.length !== unique.length) throw notFound(SHARE_GONE);
    const now = Date.now();
    const cancelled = await cancelShares(this.db, user.id, unique, now);
    // what its recipients were told no longer holds
    await resolveNotices(this.db, { type: 'share', id: unique }, ['share.received'], null, '分享已取消', now);
    return { cancelled };
  }

  /** Shares of a person that work now (not cancelled, not expired, downloads left). */
  async validCount(ownerId: number, now = Date.now()): Promise<number> {
    const row = await this.db
      .selectFrom('shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('deleted', '=', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('download_limit', 'is', null), eb('download_count', '<', eb.ref('download_limit'))]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * 离职交接, inside the caller's transaction: the shares of `fromId` not cancelled are cancelled
   * as 取消分享 does (`cancel`), or get `toId` as their owner (`keep`): links and recipients stay,
   * the rights through them are capped by the new owner's from then on, and the new owner is
   * no longer one of the recipients. Returns how many shares changed.
   */
  async handOver(trx: Kysely<Database>, fromId: number, toId: number, mode: 'keep' | 'cancel', now: number): Promise<number> {
    if (mode === 'cancel') return cancelShares(trx, fromId, null, now);
    const open = trx.selectFrom('shares').select('id').where('owner_id', '=', fromId).where('deleted', '=', 0);
    await trx.deleteFrom('share_targets').where('target_type', '=', TARGET.user).where('target_id', '=', toId).where('share_id', 'in', open).execute();
    const r = await trx.updateTable('shares').set({ owner_id: toId, updated_at: now }).where('owner_id', '=', fromId).where('deleted', '=', 0).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** GET /api/User/Shares/Sent (分享记录): newest first. */
  async sent(user: UserRow, page = 1, pageSize = 20): Promise<{ data: ShareRecord[]; total: number }> {
    const base = this.db.selectFrom('shares').where('owner_id', '=', user.id);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: await this.records(rows, Date.now()), total: Number(count.n) };
  }

  /**
   * GET /api/User/Shares/Received (与我共享): internal shares to the caller, their department
   * (or one above it) or one of their groups, that work now; newest first.
   */
  async received(user: UserRow, page = 1, pageSize = 20): Promise<{ data: ShareRecord[]; total: number }> {
    const caller = await loadCaller(this.db, user.id);
    const now = Date.now();
    const base = this.db
      .selectFrom('shares')
      .innerJoin('users as o', 'o.id', 'shares.owner_id')
      .where('shares.share_type', '=', SHARE_INTERNAL)
      .where('shares.deleted', '=', 0)
      .where('shares.owner_id', '!=', user.id)
      .where('o.disabled', '=', 0)
      .where((eb) => eb.or([eb('shares.expires_at', 'is', null), eb('shares.expires_at', '>', now)]))
      .where((eb) => eb.or([eb('shares.download_limit', 'is', null), eb('shares.download_count', '<', eb.ref('shares.download_limit'))]))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('share_targets as t')
            .select('t.share_id')
            .whereRef('t.share_id', '=', 'shares.id')
            .where((w) => {
              const any = [w.and([w('t.target_type', '=', TARGET.user), w('t.target_id', '=', user.id)])];
              if (caller.departmentIds.size) any.push(w.and([w('t.target_type', '=', TARGET.department), w('t.target_id', 'in', [...caller.departmentIds])]));
              if (caller.groupIds.size) any.push(w.and([w('t.target_type', '=', TARGET.group), w('t.target_id', 'in', [...caller.groupIds])]));
              return w.or(any);
            }),
        ),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('share_items as si')
            .innerJoin('items as i', 'i.id', 'si.item_id')
            .select('si.share_id')
            .whereRef('si.share_id', '=', 'shares.id')
            .where('i.deleted_at', 'is', null),
        ),
      );
    const [rows, count] = await Promise.all([
      base
        .selectAll('shares')
        .orderBy('shares.created_at', 'desc')
        .orderBy('shares.id')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const records = await this.records(rows, now);
    // a share whose creator has lost the right to everything in it shows nothing
    return { data: records.filter((r) => r.items.length > 0), total: Number(count.n) };
  }

  /** Share rows as the lists show them (items as reachable through the share now). */
  private async records(rows: ShareRow[], now: number): Promise<ShareRecord[]> {
    const ids = rows.map((r) => r.id);
    const [targets, owners] = await Promise.all([
      targetsOf(this.db, ids),
      rows.length
        ? this.db
            .selectFrom('users')
            .selectAll()
            .where('id', 'in', [...new Set(rows.map((r) => Number(r.owner_id)))])
            .execute()
        : Promise.resolve([]),
    ]);
    const names = await this.targetNames([...targets.values()].flat());
    const ownerById = new Map(owners.map((o) => [Number(o.id), o]));
    const out: ShareRecord[] = [];
    for (const row of rows) {
      const owner = ownerById.get(Number(row.owner_id));
      const items = await this.reachableItems(row, owner);
      let status: number = STATUS.valid;
      if (row.deleted) status = STATUS.cancelled;
      else if (
        (row.expires_at !== null && Number(row.expires_at) <= now) ||
        (row.download_limit !== null && Number(row.download_count) >= Number(row.download_limit)) ||
        !items.length ||
        !owner ||
        owner.disabled
      ) {
        status = STATUS.expired;
      }
      out.push({
        shareId: row.id,
        shareType: Number(row.share_type),
        level: Number(row.level),
        items: items.map((i) => ({ id: String(i.id), name: i.name, type: i.type, extension: i.extension, size: Number(i.size) })),
        ownerId: String(row.owner_id),
        ownerName: owner?.nick_name ?? '',
        targets: (targets.get(row.id) ?? []).map((t) => ({ type: t.type, id: String(t.id), name: names.get(`${t.type}:${t.id}`) ?? '' })),
        expireAt: row.expires_at === null ? null : this.formatTime(Number(row.expires_at)),
        createdAt: this.formatTime(Number(row.created_at)),
        visitCount: Number(row.visit_count),
        downloadCount: Number(row.download_count),
        downloadLimit: row.download_limit === null ? null : Number(row.download_limit),
        status,
        url: shareUrl(row),
      });
    }
    return out;
  }

  /** The items a share reaches now ([] when it reaches nothing). */
  private async reachableItems(share: ShareRow, owner: UserRow | undefined): Promise<ItemWithOwner[]> {
    if (!owner || owner.disabled) return [];
    try {
      return (await this.reach(share, owner)).roots;
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 401) return [];
      throw err;
    }
  }

  private async targetNames(targets: ShareTarget[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const of = (type: number) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
    const users = of(TARGET.user);
    const depts = of(TARGET.department);
    const groups = of(TARGET.group);
    if (users.length) for (const u of await this.db.selectFrom('users').select(['id', 'nick_name']).where('id', 'in', users).execute()) out.set(`1:${u.id}`, u.nick_name);
    if (depts.length) for (const d of await this.db.selectFrom('departments').select(['id', 'name']).where('id', 'in', depts).execute()) out.set(`2:${d.id}`, d.name);
    if (groups.length) for (const g of await this.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', groups).execute()) out.set(`3:${g.id}`, g.name);
    return out;
  }

  /** GET /api/User/Shares/{shareId}/Events: what happened through one of the caller's shares, newest first. */
  async events(user: UserRow, shareId: string, page = 1, pageSize = 20): Promise<{ data: ShareEvent[]; total: number }> {
    const share = SHARE_ID.test(shareId) ? await findOwnShare(this.db, user.id, shareId) : undefined;
    if (!share) throw notFound(SHARE_GONE);
    const base = this.db.selectFrom('share_events as e').where('e.share_id', '=', share.id);
    const [rows, count] = await Promise.all([
      base
        .leftJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.kind', 'e.address', 'e.item_name', 'e.created_at', 'u.nick_name'])
        .orderBy('e.created_at', 'desc')
        .orderBy('e.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      data: rows.map((r) => ({
        kind: r.kind,
        userName: r.nick_name ?? '',
        address: r.address,
        itemName: r.item_name,
        createdAt: this.formatTime(Number(r.created_at)),
      })),
      total: Number(count.n),
    };
  }

  // ---- access through a share -------------------------------------------------------------

  /** The share if it works now (not cancelled, not expired, downloads left, creator active), else 401. */
  private async workingShare(shareId: string, now: number): Promise<{ share: ShareRow; owner: UserRow }> {
    const share = SHARE_ID.test(shareId) ? await findShare(this.db, shareId) : undefined;
    if (!share) throw shareGone();
    if (share.expires_at !== null && Number(share.expires_at) <= now) throw shareGone();
    if (share.download_limit !== null && Number(share.download_count) >= Number(share.download_limit)) throw shareGone();
    const owner = await findUserById(this.db, Number(share.owner_id));
    if (!owner || owner.disabled) throw shareGone();
    return { share, owner };
  }

  /** Checks an external share's key: throttled per address and per share (429), a wrong one 403 40302. */
  private async checkKey(share: ShareRow, visitor: ShareVisitor, now: number): Promise<void> {
    const key = visitor.accessKey ?? '';
    if (!key) throw keyMissing();
    const { addressLimit, shareLimit, windowMs } = this.throttle;
    const failures = await keyFailuresSince(this.db, share.id, visitor.address, now - windowMs);
    if (failures.address >= addressLimit || failures.share >= shareLimit) {
      throw tooManyRequests(`提取码错误次数过多，请 ${Math.ceil(windowMs / 60_000)} 分钟后再试`, windowMs / 1000);
    }
    if (accessKeyMatches(share, key)) return;
    await recordKeyFailure(this.db, share.id, visitor.address, now, windowMs);
    throw wrongKey();
  }

  /** True when `user` is a recipient of an internal share (a user, their department or one above, their group). */
  private async isRecipient(share: ShareRow, user: UserRow): Promise<boolean> {
    const caller = await loadCaller(this.db, user.id);
    const targets = (await targetsOf(this.db, [share.id])).get(share.id) ?? [];
    return targets.some(
      (t) =>
        (t.type === TARGET.user && t.id === user.id) ||
        (t.type === TARGET.department && caller.departmentIds.has(t.id)) ||
        (t.type === TARGET.group && caller.groupIds.has(t.id)),
    );
  }

  /**
   * The share as it works for this request, else: 401 (gone, for everyone alike), 403 40302 (key
   * missing or wrong), 429 (too many wrong keys). An internal share answers its recipients and its
   * creator only; an external one whoever gives its key.
   */
  async open(shareId: string, visitor: ShareVisitor): Promise<ShareScope> {
    const now = Date.now();
    const { share, owner } = await this.workingShare(shareId, now);
    const reach = await this.reach(share, owner);
    if (Number(share.share_type) === SHARE_EXTERNAL) {
      await this.checkKey(share, visitor, now);
    } else {
      const user = visitor.user;
      if (!user || user.disabled) throw shareGone();
      if (user.id !== owner.id && !(await this.isRecipient(share, user))) throw shareGone();
    }
    return { share, owner, ...reach, visitor };
  }

  /**
   * What a working share reaches now: its live items that the creator may still see, and the
   * rights on them and below (401 when nothing is left).
   */
  private async reach(share: ShareRow, owner: UserRow): Promise<Pick<ShareScope, 'policy' | 'env' | 'roots' | 'rights'>> {
    const { policy, env } = await this.folders.context(owner);
    const ids = (await itemIdsOf(this.db, [share.id])).get(share.id) ?? [];
    const byId = new Map((await findItemsWithOwner(this.db, ids)).filter((r) => r.deleted_at === null).map((r) => [r.id, r]));
    const live = ids.map((id) => byId.get(id)).filter((r): r is ItemWithOwner => !!r);
    const level = Number(share.level) as Level;
    const all = await this.folders.rights.loadForShare(owner, policy, live, level);
    const roots = live.filter((r) => all.can(r, LEVEL.preview));
    if (!roots.length) throw shareGone();
    // below an item the creator can no longer see, nothing is reachable, whatever lies deeper
    const rights = roots.length === live.length ? all : await this.folders.rights.loadForShare(owner, policy, roots, level);
    return { policy, env, roots, rights };
  }

  /** The access key of a request: the `accessKey` header, else the `accessKey` query. */
  static keyOf(headers: Record<string, string | string[] | undefined>, query?: { accessKey?: string }): string | null {
    return firstOf(headers.accesskey) ?? query?.accessKey ?? null;
  }

  /** GET /api/Outsource/{shareId}: who shares, until when, at what level; the name only with the right key. */
  async info(shareId: string, visitor: ShareVisitor): Promise<OutsourceInfo> {
    const now = Date.now();
    const { share, owner } = await this.workingShare(shareId, now);
    if (Number(share.share_type) !== SHARE_EXTERNAL) throw shareGone();
    await this.reach(share, owner);
    const base = {
      shareId: share.id,
      ownerName: owner.nick_name,
      expireAt: share.expires_at === null ? null : this.formatTime(Number(share.expires_at)),
      level: Number(share.level),
    };
    if (!visitor.accessKey) return { ...base, name: '', needKey: true };
    const scope = await this.open(shareId, visitor);
    await this.record(scope, 'visit', null);
    return { ...base, name: this.shareName(scope), needKey: false };
  }

  /** The name of a share: its one item's, or the first one's with the count. */
  shareName(scope: ShareScope): string {
    const first = this.itemName(scope.roots[0], scope.env);
    return scope.roots.length === 1 ? first : `${first}等${scope.roots.length}个文件`;
  }

  private itemName(row: ItemWithOwner, env: EnvironmentConfig): string {
    if (row.parent_id !== null) return row.name;
    return row.space_type === 1 ? env.publicFolderName : env.personalFolderName;
  }

  /**
   * A folder of a share (`folderId`), or its top: the one shared folder's content, or the
   * shared items themselves when there are several or a file. Paths start at the shared item.
   */
  async items(scope: ShareScope, folderId: string | undefined, query: OutsourceItemsQuery | ItemsQuery): Promise<FolderItems> {
    const single = scope.roots.length === 1 && scope.roots[0].type === 'folder' ? scope.roots[0] : null;
    const target = folderId ? folderId : single ? String(single.id) : null;
    if (target === null) {
      const { rights } = scope;
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? 100;
      const keyword = (query.keyword ?? '').trim().toLowerCase();
      const rows = scope.roots.filter((r) => !keyword || r.name.toLowerCase().includes(keyword));
      const top: Item = {
        ...this.folders.toItem(scope.roots[0], scope.owner, scope.policy, scope.env, rights),
        id: '',
        parentId: null,
        name: this.shareName(scope),
        type: 'folder',
        extension: '',
        size: 0,
        idPath: '',
        namePath: this.shareName(scope),
        permissions: [],
        targetId: null,
        targetType: null,
        targetIdPath: null,
      };
      return {
        folder: top,
        items: {
          data: rows.slice((page - 1) * pageSize, page * pageSize).map((r) => this.scoped(scope, this.folders.toItem(r, scope.owner, scope.policy, scope.env, rights))),
          total: rows.length,
        },
      };
    }
    const listed = await this.folders.listItems(scope.owner, target, query as ItemsQuery, scope.rights);
    return {
      folder: this.scoped(scope, listed.folder),
      items: { data: listed.items.data.map((i) => this.scoped(scope, i)), total: listed.items.total },
    };
  }

  /** An item with its paths starting at the shared item it lies in: nothing above it shows. */
  scoped(scope: ShareScope, item: Item): Item {
    const at = { id: Number(item.id), id_path: item.idPath };
    const root = scope.roots.find((r) => withinItem(r, at));
    if (!root) return item;
    // the root's paths as toItem writes them (the space's root folder named as configured)
    const space = root.space_type === 1 ? scope.env.publicFolderName : scope.env.personalFolderName;
    const rootNamePath = root.name_path ? `${space}/${root.name_path}` : space;
    return {
      ...item,
      parentId: at.id === root.id ? null : item.parentId,
      idPath: `${root.id}${item.idPath.slice(root.id_path.length)}`,
      namePath: `${this.itemName(root, scope.env)}${item.namePath.slice(rootNamePath.length)}`,
      targetIdPath: null,
    };
  }

  /**
   * Counts a download against the share's limit (atomically: with a limit of 1, one of any
   * number of concurrent downloads gets it) and records it; the limit used up answers 401.
   */
  async countDownload(scope: ShareScope, item: { id: number | null; name: string }): Promise<void> {
    if (!(await takeDownload(this.db, scope.share.id))) throw shareGone();
    await recordEvent(this.db, {
      share_id: scope.share.id,
      kind: 'download',
      user_id: scope.visitor.user?.id ?? null,
      address: scope.visitor.address,
      item_id: item.id,
      item_name: item.name,
      created_at: Date.now(),
    });
  }

  /** Records a visit (and counts it) or an upload. */
  async record(scope: ShareScope, kind: 'visit' | 'upload', item: { id: number; name: string } | null): Promise<void> {
    if (kind === 'visit') {
      await countVisit(this.db, scope.share.id);
      const names = scope.roots.map((r) => r.name);
      await appendEntries(this.db, [
        {
          userId: scope.visitor.user ? Number(scope.visitor.user.id) : null,
          userName: scope.visitor.user?.user_name ?? '',
          onBehalfId: Number(scope.owner.id),
          onBehalfName: scope.owner.user_name,
          ip: scope.visitor.address,
          action: 'share.visit',
          object: { type: 'share', id: String(scope.share.id), name: names.length > 1 ? `${names[0]}等 ${names.length} 项` : (names[0] ?? '') },
          detail: { owner: scope.owner.user_name, external: Number(scope.share.share_type) === SHARE_EXTERNAL },
        },
      ]);
    }
    await recordEvent(this.db, {
      share_id: scope.share.id,
      kind,
      user_id: scope.visitor.user?.id ?? null,
      address: scope.visitor.address,
      item_id: item?.id ?? null,
      item_name: item?.name ?? '',
      created_at: Date.now(),
    });
  }
}
