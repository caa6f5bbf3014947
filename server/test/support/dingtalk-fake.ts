// A local fake of DingTalk's open API, for the tests of DingTalk sign-in, of 通讯录同步 and of the
// notices' 工作通知 (DingTalk itself cannot be reached from here): the user-token exchange and
// "who am I" of the sign-in; the app token, departments (their children, or one by id) and
// members of the contacts; a member by union id; 工作通知 sent (asyncsend_v2, kept in
// `work.sent`) and their send results (getsendresult, as `work.results` says per userid; like
// DingTalk, a content the person already got that day is dropped: forbidden, code 143106).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePerson {
  unionId: string;
  nick: string;
  mobile?: string;
  email?: string;
}

/** A department of the fake's contacts (dept 1 is the company's root). */
export interface FakeDept {
  dept_id: number;
  name: string;
  parent_id: number;
}

/** A member as topapi/v2/user/list lists them. */
export interface FakeMember {
  userid: string;
  unionid: string;
  name: string;
  mobile?: string;
  email?: string;
  job_number?: string;
  dept_id_list: number[];
}

export interface FakeContacts {
  departments: FakeDept[];
  members: FakeMember[];
}

/** A 工作通知 the fake was sent. */
export interface FakeWorkNotice {
  taskId: number;
  agentId: number;
  userids: string[];
  msg: any;
  at: number;
}

/** What getsendresult says of a userid (default unread). */
export type FakeSendResult = 'read' | 'unread' | 'failed' | 'invalid' | 'pending' | { forbidden: string };

/**
 * The fake: each code maps to a person, or to an error of DingTalk's (sign-in); `contacts` is
 * the address book that 通讯录同步 reads (app token, departments, members a page at a time,
 * never more than the 100 DingTalk allows).
 */
export function fakeDingTalk(
  codes: Record<string, FakePerson | { error: string } | { meError: string }>,
  contacts: FakeContacts = { departments: [], members: [] },
  options: { agentId?: number } = {},
) {
  const seen: { path: string; body?: any; token?: string }[] = [];
  // the app token: the current one, and those DingTalk said ran out
  let token = 'app-token';
  let tokens = 1;
  const expired = new Set<string>();
  const work = {
    agentId: options.agentId ?? 0,
    sent: [] as FakeWorkNotice[],
    /** per userid; not listed: unread */
    results: {} as Record<string, FakeSendResult>,
    /** the next asyncsend_v2 calls answer these errors, one each */
    sendErrors: [] as Array<{ errcode: number; errmsg: string }>,
    /** the next getsendresult calls answer these errors, one each */
    resultErrors: [] as Array<{ errcode: number; errmsg: string }>,
    /** the token in use runs out: the next call with it answers errcode 42001 */
    expireToken() {
      expired.add(token);
      token = `app-token-${++tokens}`;
    },
  };
  let taskSeq = 7_000_000;
  /** userid → contents got today (DingTalk drops a repeated one) */
  const got = new Map<string, Set<string>>();
  const dropped = new Map<number, Set<string>>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/v1.0/oauth2/userAccessToken') {
        const body = JSON.parse(raw || '{}');
        seen.push({ path: req.url, body });
        if (body.clientId !== 'dingapp' || body.clientSecret !== 'dingsecret' || body.grantType !== 'authorization_code') {
          return send(400, { code: 'invalidClient', message: '应用凭证无效' });
        }
        const entry = codes[body.code];
        if (!entry) return send(400, { code: 'invalidAuthCode', message: '不合法的临时授权码' });
        if ('error' in entry) return send(400, { code: 'forbidden', message: entry.error });
        return send(200, { accessToken: `token-${body.code}`, refreshToken: 'r', expireIn: 7200 });
      }
      if (req.method === 'GET' && req.url === '/v1.0/contact/users/me') {
        const token = String(req.headers['x-acs-dingtalk-access-token'] ?? '');
        seen.push({ path: req.url, token });
        const entry = codes[token.replace(/^token-/, '')];
        if (!entry || 'error' in entry) return send(401, { code: 'InvalidAuthentication', message: '访问令牌无效' });
        if ('meError' in entry) return send(403, { code: 'Forbidden.AccessDenied', message: entry.meError });
        return send(200, { ...entry, avatarUrl: '', stateCode: '86' });
      }
      if (req.method === 'POST' && req.url === '/v1.0/oauth2/accessToken') {
        const body = JSON.parse(raw || '{}');
        seen.push({ path: req.url, body });
        if (body.appKey !== 'dingapp' || body.appSecret !== 'dingsecret') return send(400, { code: 'invalidClient', message: '应用凭证无效' });
        return send(200, { accessToken: token, expireIn: 7200 });
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname.startsWith('/topapi/')) {
        const body = JSON.parse(raw || '{}');
        const given = url.searchParams.get('access_token') ?? '';
        seen.push({ path: url.pathname, body, token: given });
        if (expired.has(given)) return send(200, { errcode: 42001, errmsg: 'access_token超时' });
        if (given !== token) return send(200, { errcode: 88, errmsg: '不合法的access_token' });
        if (url.pathname === '/topapi/user/getbyunionid') {
          const m = contacts.members.find((x) => x.unionid === body.unionid);
          if (!m) return send(200, { errcode: 60121, errmsg: '找不到该用户' });
          return send(200, { errcode: 0, errmsg: 'ok', result: { contact_type: 0, userid: m.userid } });
        }
        if (url.pathname === '/topapi/message/corpconversation/asyncsend_v2') {
          const error = work.sendErrors.shift();
          if (error) return send(200, error);
          if (body.agent_id !== work.agentId) return send(200, { errcode: 40056, errmsg: '不合法的agentid' });
          const userids = String(body.userid_list ?? '').split(',').filter(Boolean);
          if (!userids.length || userids.length > 100) return send(200, { errcode: 40035, errmsg: '不合法的参数 userid_list' });
          if (!body.msg || !['action_card', 'markdown', 'text', 'link', 'oa'].includes(body.msg.msgtype)) return send(200, { errcode: 40035, errmsg: '不合法的参数 msg' });
          const taskId = ++taskSeq;
          work.sent.push({ taskId, agentId: body.agent_id, userids, msg: body.msg, at: Date.now() });
          const content = JSON.stringify(body.msg);
          const drop = new Set<string>();
          for (const u of userids) {
            const mine = got.get(u) ?? new Set<string>();
            if (mine.has(content)) drop.add(u);
            mine.add(content);
            got.set(u, mine);
          }
          dropped.set(taskId, drop);
          return send(200, { errcode: 0, errmsg: 'ok', task_id: taskId, request_id: `req-${taskId}` });
        }
        if (url.pathname === '/topapi/message/corpconversation/getsendresult') {
          const error = work.resultErrors.shift();
          if (error) return send(200, error);
          const task = work.sent.find((t) => t.taskId === body.task_id);
          if (!task || body.agent_id !== work.agentId) return send(200, { errcode: 40035, errmsg: '不合法的参数 task_id' });
          const r = { invalid_user_id_list: [] as string[], forbidden_user_id_list: [] as string[], failed_user_id_list: [] as string[], read_user_id_list: [] as string[], unread_user_id_list: [] as string[], invalid_dept_id_list: [], forbidden_list: [] as any[] };
          for (const u of task.userids) {
            const said: FakeSendResult = dropped.get(task.taskId)?.has(u) ? { forbidden: '143106' } : (work.results[u] ?? 'unread');
            if (said === 'pending') continue;
            if (typeof said === 'object') {
              r.forbidden_user_id_list.push(u);
              r.forbidden_list.push({ code: said.forbidden, count: 1, userid: u });
            } else r[`${said}_user_id_list`].push(u);
          }
          return send(200, { errcode: 0, errmsg: 'ok', send_result: r, request_id: 'req' });
        }
        if (url.pathname === '/topapi/v2/department/listsub') {
          return send(200, { errcode: 0, errmsg: 'ok', result: contacts.departments.filter((d) => d.parent_id === body.dept_id) });
        }
        if (url.pathname === '/topapi/v2/department/get') {
          const dept = contacts.departments.find((d) => d.dept_id === body.dept_id);
          if (!dept) return send(200, { errcode: 60003, errmsg: '部门不存在' });
          return send(200, { errcode: 0, errmsg: 'ok', result: { dept_id: dept.dept_id, name: dept.name, parent_id: dept.parent_id } });
        }
        if (url.pathname === '/topapi/v2/user/list') {
          if (body.size > 100) return send(200, { errcode: 40061, errmsg: '分页大小超过限制' });
          const inDept = contacts.members.filter((m) => m.dept_id_list.includes(body.dept_id));
          const page = inDept.slice(body.cursor, body.cursor + body.size);
          const more = body.cursor + body.size < inDept.length;
          return send(200, { errcode: 0, errmsg: 'ok', result: { has_more: more, ...(more ? { next_cursor: body.cursor + body.size } : {}), list: page } });
        }
      }
      send(404, { code: 'notFound', message: 'no such api' });
    });
  });
  return {
    seen,
    work,
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
