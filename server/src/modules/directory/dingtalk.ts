// The DingTalk side of 目录同步 (通讯录同步): the app's access token (POST /v1.0/oauth2/accessToken),
// the department tree walked from the root (topapi/v2/department/listsub) and every member of
// every department, a page of 100 at a time until DingTalk says there is no more
// (topapi/v2/user/list with its cursor). A person in several departments is placed in the first
// one DingTalk lists for them. Any error of DingTalk stops the sync before anything is planned.
// The root is the whole organisation (dept 1) unless a department is chosen: then only that
// department and the ones under it are read, and their paths still start at the organisation
// (the chosen department's parents are read with topapi/v2/department/get), so that narrowing
// or widening the root moves nobody.
import type { DingTalkConfig } from '../../config';
import type { DirectoryEntry } from './sync';
import { DirectoryUnavailable } from './ldap';

/** 钉钉通讯录同步 settings (the `dingtalkSyncSettings` setting); the app itself is configured by DINGTALK_* variables. */
export interface DingtalkSyncSettings {
  /** 自动同步: a scheduled sync every `intervalMinutes`, applied unless refused */
  enabled: boolean;
  /** minutes between scheduled syncs, 5–10080 */
  intervalMinutes: number;
  /** a sync that would disable more than this share (percent) of the synced people is not applied */
  maxDisablePercent: number;
  /** the DingTalk department synced with the ones under it; null: the whole organisation (dept 1) */
  rootDeptId: number | null;
}

export const DEFAULT_DINGTALK_SYNC: DingtalkSyncSettings = { enabled: false, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null };

/** DingTalk's own root department: the whole organisation. */
export const DINGTALK_ROOT_DEPT = 1;

const TIMEOUT_MS = 15_000;
const PAGE = 100;
const ROOT = DINGTALK_ROOT_DEPT;

interface Dept {
  id: number;
  name: string;
  parent: number | null;
}

export class DingTalkDirectory {
  constructor(private readonly config: DingTalkConfig) {}

  private async json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new DirectoryUnavailable('无法连接钉钉服务，请稍后重试');
    }
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    if (!res.ok) throw new DirectoryUnavailable(`钉钉返回错误：${typeof body.message === 'string' ? body.message : `HTTP ${res.status}`}`);
    if (typeof body.errcode === 'number' && body.errcode !== 0) throw new DirectoryUnavailable(`钉钉返回错误：${String(body.errmsg ?? body.errcode)}`);
    return body;
  }

  private async token(): Promise<string> {
    const r = await this.json(`${this.config.apiBase}/v1.0/oauth2/accessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appKey: this.config.appKey, appSecret: this.config.appSecret }),
    });
    if (typeof r.accessToken !== 'string' || !r.accessToken) throw new DirectoryUnavailable('钉钉未返回访问令牌（请检查应用的通讯录权限）');
    return r.accessToken;
  }

  private post(path: string, token: string, body: unknown) {
    return this.json(`${this.config.oapiBase}${path}?access_token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  /** The chosen root and its parents up to the organisation (their names make the paths). */
  private async ancestry(token: string, root: number, all: Map<number, Dept>): Promise<void> {
    for (let id = root, depth = 0; id !== ROOT && !all.has(id) && depth < 64; depth++) {
      const r = await this.post('/topapi/v2/department/get', token, { dept_id: id, language: 'zh_CN' });
      const d = (r.result ?? {}) as { dept_id?: number; name?: string; parent_id?: number };
      const parent = typeof d.parent_id === 'number' ? d.parent_id : ROOT;
      all.set(id, { id, name: String(d.name ?? '').trim(), parent });
      id = parent;
    }
  }

  /** Every department from the root down, breadth first: `all` also holds the root's parents, `under` does not. */
  private async departments(token: string, root: number): Promise<{ all: Map<number, Dept>; under: number[] }> {
    const all = new Map<number, Dept>([[ROOT, { id: ROOT, name: '', parent: null }]]);
    if (root !== ROOT) await this.ancestry(token, root, all);
    const under = [root];
    const queue = [root];
    while (queue.length) {
      const id = queue.shift()!;
      const r = await this.post('/topapi/v2/department/listsub', token, { dept_id: id });
      for (const d of (r.result as { dept_id: number; name: string; parent_id?: number }[] | undefined) ?? []) {
        if (all.has(d.dept_id)) continue;
        all.set(d.dept_id, { id: d.dept_id, name: String(d.name ?? '').trim(), parent: d.parent_id ?? id });
        under.push(d.dept_id);
        queue.push(d.dept_id);
      }
    }
    return { all, under };
  }

  private path(all: Map<number, Dept>, id: number): string[] {
    const names: string[] = [];
    for (let d = all.get(id); d && d.id !== ROOT; d = d.parent === null ? undefined : all.get(d.parent)) names.unshift(d.name);
    return names;
  }

  /** Every member of the root department (DingTalk dept id, 1 for the whole organisation) and the ones under it. */
  async people(root = ROOT): Promise<DirectoryEntry[]> {
    const token = await this.token();
    const { all: depts, under } = await this.departments(token, root);
    const inTree = new Set(under);
    const people = new Map<string, DirectoryEntry>();
    for (const dept of under.map((id) => depts.get(id)!)) {
      for (let cursor = 0; ; ) {
        const r = await this.post('/topapi/v2/user/list', token, { dept_id: dept.id, cursor, size: PAGE, contain_access_limit: false });
        const result = (r.result ?? {}) as { has_more?: boolean; next_cursor?: number; list?: Record<string, unknown>[] };
        for (const u of result.list ?? []) {
          const userid = typeof u.userid === 'string' ? u.userid : '';
          if (!userid || people.has(userid)) continue;
          const firstDept = Array.isArray(u.dept_id_list) && typeof u.dept_id_list[0] === 'number' ? (u.dept_id_list[0] as number) : dept.id;
          const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
          people.set(userid, {
            externalId: userid,
            userName: userid,
            nickName: text(u.name) || userid,
            email: text(u.email).toLowerCase() || text(u.org_email).toLowerCase(),
            mobile: text(u.mobile).replace(/^\+?86-?/, ''),
            employeeNo: text(u.job_number),
            deptPath: this.path(depts, inTree.has(firstDept) ? firstDept : dept.id),
            unionId: text(u.unionid) || undefined,
          });
        }
        if (!result.has_more || typeof result.next_cursor !== 'number' || result.next_cursor === cursor) break;
        cursor = result.next_cursor;
      }
    }
    return [...people.values()];
  }
}
