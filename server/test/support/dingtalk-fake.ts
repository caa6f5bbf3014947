// A local fake of DingTalk's open API, for the tests of DingTalk sign-in and of 通讯录同步
// (DingTalk itself cannot be reached from here): the user-token exchange and "who am I" of the
// sign-in, and the app token, departments (their children, or one by id) and members of the contacts.
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

/**
 * The fake: each code maps to a person, or to an error of DingTalk's (sign-in); `contacts` is
 * the address book that 通讯录同步 reads (app token, departments, members a page at a time,
 * never more than the 100 DingTalk allows).
 */
export function fakeDingTalk(codes: Record<string, FakePerson | { error: string } | { meError: string }>, contacts: FakeContacts = { departments: [], members: [] }) {
  const seen: { path: string; body?: any; token?: string }[] = [];
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
        return send(200, { accessToken: 'app-token', expireIn: 7200 });
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname.startsWith('/topapi/')) {
        const body = JSON.parse(raw || '{}');
        seen.push({ path: url.pathname, body, token: url.searchParams.get('access_token') ?? '' });
        if (url.searchParams.get('access_token') !== 'app-token') return send(200, { errcode: 88, errmsg: '不合法的access_token' });
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
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
