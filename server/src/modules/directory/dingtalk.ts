// The DingTalk side of 目录同步 (通讯录同步): the app's access token (POST /v1.0/oauth2/accessToken),
// the department tree walked from the root (topapi/v2/department/listsub) and every member of
// every department, a page of 100 at a time until DingTalk says there is no more
// (topapi/v2/user/list with its cursor). A person in several departments is placed in the first
// one DingTalk lists for them. Any error of DingTalk stops the sync before anything is planned.
import type { DingTalkConfig } from '../../config';
import type { DirectoryEntry } from './sync';
import { DirectoryUnavailable } from './ldap';

const TIMEOUT_MS = 15_000;
const PAGE = 100;
const ROOT = 1;

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

  /** Every department under the root, breadth first. */
  private async departments(token: string): Promise<Map<number, Dept>> {
    const all = new Map<number, Dept>([[ROOT, { id: ROOT, name: '', parent: null }]]);
    const queue = [ROOT];
    while (queue.length) {
      const id = queue.shift()!;
      const r = await this.post('/topapi/v2/department/listsub', token, { dept_id: id });
      for (const d of (r.result as { dept_id: number; name: string; parent_id?: number }[] | undefined) ?? []) {
        if (all.has(d.dept_id)) continue;
        all.set(d.dept_id, { id: d.dept_id, name: String(d.name ?? '').trim(), parent: d.parent_id ?? id });
        queue.push(d.dept_id);
      }
    }
    return all;
  }

  private path(all: Map<number, Dept>, id: number): string[] {
    const names: string[] = [];
    for (let d = all.get(id); d && d.id !== ROOT; d = d.parent === null ? undefined : all.get(d.parent)) names.unshift(d.name);
    return names;
  }

  async people(): Promise<DirectoryEntry[]> {
    const token = await this.token();
    const depts = await this.departments(token);
    const people = new Map<string, DirectoryEntry>();
    for (const dept of depts.values()) {
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
            deptPath: this.path(depts, depts.has(firstDept) ? firstDept : dept.id),
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
