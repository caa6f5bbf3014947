// 云文档 目录同步 (系统管理 → 目录同步): the LDAP settings (the bind password sealed), 测试连接,
// the 钉钉通讯录同步 settings (DingTalk itself is configured by DINGTALK_* variables), a sync
// that first shows its plan and is applied when an administrator confirms, the scheduled sync
// of each source (default every 60 minutes) that runs on one instance at a time under a lease
// in the database, and the record of runs. Sign-in of directory people goes through here.
import type { Kysely } from 'kysely';
import { JobLeases } from '../../lib/job-lease';
import type { Database, UserRow } from '../../db/types';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { readSetting, writeSetting } from '../settings/repository';
import { recordAction } from '../people/repository';
import { assertSystemAdmin } from '../users/service';
import { DEFAULT_DINGTALK_SYNC, DINGTALK_ROOT_DEPT, type DingtalkSyncSettings } from './dingtalk';
import { DEFAULT_LDAP_SETTINGS, DirectoryUnavailable, LdapDirectory, type LdapSettings } from './ldap';
import type { DirectoryAnswer, DirectoryEntry, DirectorySource, DirectorySync, SyncSummary } from './sync';

const SEAL_PURPOSE = 'ldap-bind-password';
const LEASE_MS = 15 * 60 * 1000;
const RUNS_KEPT = 200;

interface StoredLdap extends LdapSettings {
  bindPasswordSealed?: string;
}

export interface LdapSettingsView extends LdapSettings {
  /** a bind password is stored (it is never sent back) */
  hasBindPassword: boolean;
}

/** GET /Admin/Directory/Dingtalk: the settings, and whether DingTalk is configured (its app key; the secret never). */
export interface DingtalkSyncView extends DingtalkSyncSettings {
  configured: boolean;
  /** DINGTALK_APP_KEY ('' when not configured) */
  appKey: string;
}

/** The DingTalk side, set when DINGTALK_APP_KEY and DINGTALK_APP_SECRET are: its app key and its contacts reader. */
export interface DingtalkFeed {
  appKey: string;
  /** every member of the department (1: the whole organisation) and the ones under it */
  people: (rootDeptId: number) => Promise<DirectoryEntry[]>;
}

const NOT_CONFIGURED = '未配置钉钉（请设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET 环境变量）';

export interface RunView {
  id: string;
  source: DirectorySource;
  trigger: 'manual' | 'schedule';
  status: 'planned' | 'applied' | 'refused' | 'failed';
  startedAt: number;
  finishedAt: number | null;
  summary: SyncSummary | null;
  error: string;
}

/** 503, code 50301: the directory cannot be reached; what the sign-in page shows. */
export const directoryDown = () => new AppError(503, 50301, '无法连接目录服务器，目录用户暂时不能登录，请稍后再试或联系管理员');
/** 503, code 50301: LDAP is switched off while the account is a directory one. */
export const directoryOff = () => new AppError(503, 50301, '目录登录已停用，目录用户暂时不能登录，请联系管理员');

type SettingsBody = Partial<Omit<LdapSettings, 'attributes'>> & { attributes?: Partial<LdapSettings['attributes']> };

function clean(body: SettingsBody, current: LdapSettings): LdapSettings {
  const s: LdapSettings = { ...current, ...body, attributes: { ...current.attributes, ...(body.attributes ?? {}) } };
  s.url = s.url.trim();
  s.bindDn = s.bindDn.trim();
  s.baseDn = s.baseDn.trim();
  s.userFilter = s.userFilter.trim();
  if (s.enabled) {
    if (!/^ldaps?:\/\/[^\s/]+/i.test(s.url)) throw badRequest('目录服务器地址应为 ldap://主机:端口 或 ldaps://主机:端口');
    if (!s.baseDn) throw badRequest('请填写基准 DN（如 dc=example,dc=com）');
  }
  s.groupFilter = s.groupFilter.trim();
  s.groupBaseDn = s.groupBaseDn.trim();
  if (s.userFilter && !/^\(.*\)$/.test(s.userFilter)) throw badRequest('用户筛选条件应是一个用括号括起来的 LDAP 过滤器，如 (objectClass=inetOrgPerson)');
  if (s.groupFilter && !/^\(.*\)$/.test(s.groupFilter)) throw badRequest('用户组筛选条件应是一个用括号括起来的 LDAP 过滤器，如 (objectClass=groupOfNames)');
  for (const [k, v] of [['用户组名称属性', s.groupNameAttribute], ['成员属性', s.groupMemberAttribute]] as const) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(v)) throw badRequest(`${k}应为一个 LDAP 属性名`);
  }
  for (const [k, v] of Object.entries(s.attributes)) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(v)) throw badRequest(`属性映射“${k}”应为一个 LDAP 属性名`);
  }
  if (s.departmentsFrom === 'attribute' && !/^[A-Za-z][A-Za-z0-9-]*$/.test(s.departmentAttribute)) throw badRequest('部门属性应为一个 LDAP 属性名');
  if (!Number.isInteger(s.intervalMinutes) || s.intervalMinutes < 0 || s.intervalMinutes > 7 * 24 * 60) throw badRequest('同步间隔应为 0–10080 分钟（0 为不自动同步）');
  if (!(s.maxDisablePercent >= 0 && s.maxDisablePercent <= 100)) throw badRequest('停用比例上限应在 0–100 之间');
  return s;
}

function cleanDingtalk(body: Partial<DingtalkSyncSettings>, current: DingtalkSyncSettings, configured: boolean): DingtalkSyncSettings {
  const s: DingtalkSyncSettings = { ...current, ...body };
  if (!Number.isInteger(s.intervalMinutes) || s.intervalMinutes < 5 || s.intervalMinutes > 7 * 24 * 60) throw badRequest('自动同步间隔应为 5–10080 分钟');
  if (!(s.maxDisablePercent >= 0 && s.maxDisablePercent <= 100)) throw badRequest('停用比例上限应在 0–100 之间');
  if (s.rootDeptId !== null && !(Number.isSafeInteger(s.rootDeptId) && s.rootDeptId >= 1)) throw badRequest('根部门 ID 应为钉钉中的部门 ID（正整数）；留空则同步整个组织');
  // DingTalk's dept 1 is the whole organisation
  if (s.rootDeptId === DINGTALK_ROOT_DEPT) s.rootDeptId = null;
  if (s.enabled && !current.enabled && !configured) throw badRequest(`${NOT_CONFIGURED}，不能开启自动同步`);
  return s;
}

export class DirectoryService {
  readonly ldap: LdapDirectory;
  private readonly leases: JobLeases;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly sync: DirectorySync,
  ) {
    this.leases = new JobLeases(db);
    this.ldap = new LdapDirectory(async () => {
      const s = await this.stored();
      return { settings: s, bindPassword: s.bindPasswordSealed ? (this.box.open(s.bindPasswordSealed, SEAL_PURPOSE) ?? '') : '' };
    });
  }

  private async stored(): Promise<StoredLdap> {
    const raw = (await readSetting(this.db, 'ldapSettings')) as Partial<StoredLdap> | undefined;
    return { ...DEFAULT_LDAP_SETTINGS, ...(raw ?? {}), attributes: { ...DEFAULT_LDAP_SETTINGS.attributes, ...(raw?.attributes ?? {}) } };
  }

  private view(s: StoredLdap): LdapSettingsView {
    const { bindPasswordSealed, ...rest } = s;
    return { ...rest, hasBindPassword: !!bindPasswordSealed };
  }

  async settings(caller: UserRow): Promise<LdapSettingsView> {
    assertSystemAdmin(caller);
    return this.view(await this.stored());
  }

  /** Whether directory sign-in applies (LDAP is switched on). */
  async ldapEnabled(): Promise<boolean> {
    return (await this.stored()).enabled;
  }

  /** `bindPassword` undefined keeps the stored one; '' clears it. */
  async setSettings(caller: UserRow, body: SettingsBody & { bindPassword?: string }): Promise<LdapSettingsView> {
    assertSystemAdmin(caller);
    const current = await this.stored();
    const { bindPassword, ...rest } = body;
    const next: StoredLdap = { ...clean(rest, current), bindPasswordSealed: current.bindPasswordSealed };
    if (bindPassword !== undefined) next.bindPasswordSealed = bindPassword ? this.box.seal(bindPassword, SEAL_PURPOSE) : undefined;
    await writeSetting(this.db, 'ldapSettings', next, Date.now());
    await recordAction(this.db, { actorId: caller.id, actorName: caller.user_name, action: '修改目录同步设置', targetType: 'setting', targetId: 'ldapSettings', targetName: 'LDAP', detail: `${next.enabled ? '启用' : '停用'}，${next.url}，${next.baseDn}` });
    return this.view(next);
  }

  // ---- 钉钉通讯录同步 ----

  private async dingtalkStored(): Promise<DingtalkSyncSettings> {
    const raw = (await readSetting(this.db, 'dingtalkSyncSettings')) as Partial<DingtalkSyncSettings> | undefined;
    return { ...DEFAULT_DINGTALK_SYNC, ...(raw ?? {}) };
  }

  private dingtalkView(s: DingtalkSyncSettings): DingtalkSyncView {
    return { configured: !!this.dingtalk, appKey: this.dingtalk?.appKey ?? '', ...s };
  }

  async dingtalkSettings(caller: UserRow): Promise<DingtalkSyncView> {
    assertSystemAdmin(caller);
    return this.dingtalkView(await this.dingtalkStored());
  }

  async setDingtalkSettings(caller: UserRow, body: Partial<DingtalkSyncSettings>): Promise<DingtalkSyncView> {
    assertSystemAdmin(caller);
    const next = cleanDingtalk(body, await this.dingtalkStored(), !!this.dingtalk);
    await writeSetting(this.db, 'dingtalkSyncSettings', next, Date.now());
    await recordAction(this.db, {
      actorId: caller.id,
      actorName: caller.user_name,
      action: '修改钉钉通讯录同步设置',
      targetType: 'setting',
      targetId: 'dingtalkSyncSettings',
      targetName: '钉钉',
      detail: `${next.enabled ? `自动同步，每 ${next.intervalMinutes} 分钟` : '不自动同步'}，停用比例上限 ${next.maxDisablePercent}%，${next.rootDeptId === null ? '整个组织' : `部门 ${next.rootDeptId} 及其下级部门`}`,
    });
    return this.dingtalkView(next);
  }

  async test(caller: UserRow): Promise<{ ok: boolean; people: number; sample: string[]; message: string }> {
    assertSystemAdmin(caller);
    try {
      const r = await this.ldap.test();
      return { ok: true, ...r, message: `连接成功，找到 ${r.people} 个用户` };
    } catch (err) {
      return { ok: false, people: 0, sample: [], message: err instanceof DirectoryUnavailable ? err.message : `连接失败：${(err as Error).message}` };
    }
  }

  // ---- one instance at a time ----

  private lease(name: string, now = Date.now()): Promise<boolean> {
    return this.leases.take(name, LEASE_MS, now);
  }

  private release(name: string): Promise<void> {
    return this.leases.release(name);
  }

  private async withLease<T>(source: DirectorySource, fn: () => Promise<T>, now = Date.now()): Promise<T> {
    if (!(await this.lease(`directory-sync:${source}`, now))) throw new AppError(409, 40903, '另一次目录同步正在进行，请稍后再试');
    try {
      return await fn();
    } finally {
      await this.release(`directory-sync:${source}`);
    }
  }

  // ---- runs ----

  private async fetch(source: DirectorySource): Promise<DirectoryAnswer> {
    if (source === 'ldap') return this.ldap.read();
    if (!this.dingtalk) throw badRequest('未配置钉钉通讯录同步');
    return { people: await this.dingtalk.people((await this.dingtalkStored()).rootDeptId ?? DINGTALK_ROOT_DEPT), groups: [] };
  }

  /** The DingTalk feed (directory/dingtalk.ts), set when DingTalk is configured. */
  dingtalk: DingtalkFeed | null = null;

  private async maxDisable(source: DirectorySource): Promise<number> {
    return source === 'ldap' ? (await this.stored()).maxDisablePercent : (await this.dingtalkStored()).maxDisablePercent;
  }

  private async insertRun(source: DirectorySource, trigger: 'manual' | 'schedule', caller: UserRow | null, now: number): Promise<number> {
    const row = await this.db
      .insertInto('directory_runs')
      .values({ source, trigger, status: 'failed', started_at: now, finished_at: null, created_by: caller?.id ?? null, entries: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    // keep the newest runs only
    const old = await this.db.selectFrom('directory_runs').select('id').orderBy('id', 'desc').offset(RUNS_KEPT).limit(1000).execute();
    if (old.length) await this.db.deleteFrom('directory_runs').where('id', 'in', old.map((o) => o.id)).execute();
    return Number(row.id);
  }

  private async finishRun(id: number, status: RunView['status'], summary: SyncSummary | null, error = '', entries: DirectoryAnswer | null = null) {
    await this.db
      .updateTable('directory_runs')
      .set({ status, summary: summary ? JSON.stringify(summary) : '', error, finished_at: Date.now(), entries: entries ? JSON.stringify(entries) : null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * 立即同步: reads the directory and records the plan. `apply` false (the page's first step)
   * keeps the answer for 应用; true (the schedule) applies at once unless the plan is refused.
   */
  async run(source: DirectorySource, trigger: 'manual' | 'schedule', caller: UserRow | null, apply: boolean, now = Date.now()): Promise<RunView> {
    if (caller) assertSystemAdmin(caller);
    return this.withLease(source, async () => {
      const id = await this.insertRun(source, trigger, caller, now);
      let entries: DirectoryAnswer;
      try {
        entries = await this.fetch(source);
      } catch (err) {
        await this.finishRun(id, 'failed', null, err instanceof DirectoryUnavailable || err instanceof AppError ? err.message : `读取目录失败：${(err as Error).message}`);
        return this.getRun(id);
      }
      const plan = await this.sync.plan(source, entries, await this.maxDisable(source));
      if (plan.summary.refused) await this.finishRun(id, 'refused', plan.summary, plan.summary.refused);
      else if (!apply) await this.finishRun(id, 'planned', plan.summary, '', entries);
      else {
        try {
          await this.sync.apply(source, plan);
          await this.finishRun(id, 'applied', plan.summary);
        } catch (err) {
          await this.finishRun(id, 'failed', plan.summary, `应用失败：${(err as Error).message}`);
        }
      }
      return this.getRun(id);
    }, now);
  }

  /** 应用: a planned run, checked again against the people of now (the same answer of the directory). */
  async applyRun(caller: UserRow, idText: string): Promise<RunView> {
    assertSystemAdmin(caller);
    const run = await this.db.selectFrom('directory_runs').selectAll().where('id', '=', Number(idText)).executeTakeFirst();
    if (!run || !/^\d+$/.test(idText)) throw notFound('同步记录不存在');
    if (run.status !== 'planned' || !run.entries) throw new AppError(409, 40903, '只有待应用的同步计划可以应用');
    const latest = await this.db.selectFrom('directory_runs').select('id').where('source', '=', run.source).orderBy('id', 'desc').executeTakeFirst();
    if (Number(latest?.id) !== Number(run.id)) throw new AppError(409, 40903, '之后又同步过，请使用最新的同步计划');
    const source = run.source as DirectorySource;
    return this.withLease(source, async () => {
      const entries = JSON.parse(run.entries!) as DirectoryAnswer;
      const plan = await this.sync.plan(source, entries, await this.maxDisable(source));
      if (plan.summary.refused) {
        await this.finishRun(Number(run.id), 'refused', plan.summary, plan.summary.refused);
        return this.getRun(String(run.id));
      }
      await this.sync.apply(source, plan);
      await this.finishRun(Number(run.id), 'applied', plan.summary);
      const s = plan.summary;
      await recordAction(this.db, {
        actorId: caller.id,
        actorName: caller.user_name,
        action: source === 'ldap' ? 'LDAP 同步' : '钉钉通讯录同步',
        targetType: 'directory',
        targetId: String(run.id),
        targetName: source === 'ldap' ? 'LDAP' : '钉钉',
        detail: `新增 ${s.adds}，更新 ${s.updates}，调动 ${s.moves}，停用 ${s.disables}，新建部门 ${s.departmentsToCreate.length}，用户组 新增 ${s.groups.adds} 更新 ${s.groups.updates} 删除 ${s.groups.removes}`,
      });
      return this.getRun(String(run.id));
    });
  }

  async getRun(id: number | string): Promise<RunView> {
    const r = await this.db.selectFrom('directory_runs').selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (!r) throw notFound('同步记录不存在');
    return {
      id: String(r.id),
      source: r.source as DirectorySource,
      trigger: r.trigger as RunView['trigger'],
      status: r.status as RunView['status'],
      startedAt: Number(r.started_at),
      finishedAt: r.finished_at === null ? null : Number(r.finished_at),
      summary: r.summary ? (JSON.parse(r.summary) as SyncSummary) : null,
      error: r.error,
    };
  }

  /** The latest runs of one source, or of every source ('all'), newest first. */
  async runs(caller: UserRow, source: DirectorySource | 'all', limit = 20): Promise<RunView[]> {
    assertSystemAdmin(caller);
    let q = this.db.selectFrom('directory_runs').select('id');
    if (source !== 'all') q = q.where('source', '=', source);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return Promise.all(rows.map((r) => this.getRun(r.id)));
  }

  /**
   * The scheduler's beat (every minute on each instance): each source whose scheduled sync is on
   * (LDAP enabled with an interval; DingTalk configured with 自动同步 on) and whose last
   * scheduled run is older than its interval is synced by one instance, under the lease, and
   * applied unless refused. Gives the run made (LDAP's when both were due), or null.
   */
  async tick(now = Date.now()): Promise<RunView | null> {
    const made: RunView[] = [];
    let failure: unknown = null;
    for (const source of ['ldap', 'dingtalk'] as const) {
      try {
        const run = await this.scheduled(source, now);
        if (run) made.push(run);
      } catch (err) {
        // one source failing does not keep the other from its turn
        failure ??= err;
      }
    }
    if (failure) throw failure;
    return made[0] ?? null;
  }

  /** Minutes between scheduled syncs of the source, or null when it has none. */
  private async interval(source: DirectorySource): Promise<number | null> {
    if (source === 'ldap') {
      const s = await this.stored();
      return s.enabled && s.intervalMinutes ? s.intervalMinutes : null;
    }
    if (!this.dingtalk) return null;
    const s = await this.dingtalkStored();
    return s.enabled ? s.intervalMinutes : null;
  }

  private async scheduled(source: DirectorySource, now: number): Promise<RunView | null> {
    const minutes = await this.interval(source);
    if (!minutes) return null;
    const name = `directory-sync:${source}`;
    if (!(await this.lease(name, now))) return null;
    try {
      // checked under the lease: an instance that got it after another's run sees that run
      const last = await this.db
        .selectFrom('directory_runs')
        .select('started_at')
        .where('source', '=', source)
        .where('trigger', '=', 'schedule')
        .orderBy('started_at', 'desc')
        .executeTakeFirst();
      if (last && Number(last.started_at) > now - minutes * 60_000) return null;
      return await this.run(source, 'schedule', null, true, now);
    } finally {
      await this.release(name);
    }
  }
}
