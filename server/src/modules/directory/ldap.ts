// The LDAP / Active Directory side of 目录同步 (ldapts): a connection with LDAPS or StartTLS,
// a bind as the configured account, every person under the base DN in pages (past the server's
// size limit), a person's departments from the OU path of their DN or from an attribute, and
// sign-in by binding as the person.
import { Client, EqualityFilter, InvalidCredentialsError, type Entry } from 'ldapts';
import type { DirectoryAnswer, DirectoryEntry, DirectoryGroup } from './sync';

export interface LdapSettings {
  enabled: boolean;
  url: string;
  startTls: boolean;
  /** verify the server's certificate (LDAPS, StartTLS) */
  tlsVerify: boolean;
  bindDn: string;
  baseDn: string;
  userFilter: string;
  attributes: { userName: string; displayName: string; mail: string; mobile: string; employeeNo: string };
  /** groups synced as 用户组 ('' for none), their name and member (DN) attributes */
  groupFilter: string;
  groupBaseDn: string;
  groupNameAttribute: string;
  groupMemberAttribute: string;
  /** 'ou': the OUs between the base DN and the person; 'attribute': a path like 研发中心/前端组 in `departmentAttribute` */
  departmentsFrom: 'ou' | 'attribute';
  departmentAttribute: string;
  /** minutes between scheduled syncs; 0: none */
  intervalMinutes: number;
  /** a sync that would disable more than this share (percent) of the directory's people is not applied */
  maxDisablePercent: number;
}

export const DEFAULT_LDAP_SETTINGS: LdapSettings = {
  enabled: false,
  url: '',
  startTls: false,
  tlsVerify: true,
  bindDn: '',
  baseDn: '',
  userFilter: '(objectClass=inetOrgPerson)',
  groupFilter: '(objectClass=groupOfNames)',
  groupBaseDn: '',
  groupNameAttribute: 'cn',
  groupMemberAttribute: 'member',
  attributes: { userName: 'uid', displayName: 'cn', mail: 'mail', mobile: 'mobile', employeeNo: 'employeeNumber' },
  departmentsFrom: 'ou',
  departmentAttribute: 'departmentNumber',
  intervalMinutes: 60,
  maxDisablePercent: 10,
};

const TIMEOUT_MS = 10_000;
const PAGE_SIZE = 500;

/** A directory that could not be reached or refused the service account: what the administrator reads. */
export class DirectoryUnavailable extends Error {}

function first(v: Entry[string] | undefined): string {
  if (v === undefined) return '';
  const x = Array.isArray(v) ? v[0] : v;
  if (x === undefined) return '';
  return (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)).trim();
}

/** Parses `a=b,c=d` into RDNs, honouring escaped commas. */
export function rdns(dn: string): { type: string; value: string }[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < dn.length; i++) {
    const ch = dn[i];
    if (ch === '\\' && i + 1 < dn.length) {
      cur += ch + dn[i + 1];
      i++;
    } else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out.map((r) => {
    const eq = r.indexOf('=');
    return { type: r.slice(0, eq).trim().toLowerCase(), value: unescapeDnValue(r.slice(eq + 1).trim()) };
  });
}

function unescapeDnValue(v: string): string {
  // \XX hex pairs (UTF-8 bytes) and \c escapes
  const bytes: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '\\' && /^[0-9a-fA-F]{2}$/.test(v.slice(i + 1, i + 3))) {
      bytes.push(parseInt(v.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (v[i] === '\\' && i + 1 < v.length) {
      bytes.push(...Buffer.from(v[i + 1], 'utf8'));
      i++;
    } else bytes.push(...Buffer.from(v[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A DN compared without case or spaces around its separators. */
export function normaliseDn(dn: string): string {
  return rdns(dn)
    .map((r) => `${r.type}=${r.value.toLowerCase()}`)
    .join(',');
}

/** The OU names between the base DN and the entry, from the top down. */
export function ouPath(dn: string, baseDn: string): string[] {
  const entry = rdns(dn);
  const base = rdns(baseDn);
  const below = entry.slice(0, Math.max(0, entry.length - base.length));
  return below
    .filter((r) => r.type === 'ou')
    .map((r) => r.value)
    .reverse();
}

export class LdapDirectory {
  constructor(private readonly settings: () => Promise<{ settings: LdapSettings; bindPassword: string }>) {}

  private async connect(s: LdapSettings): Promise<Client> {
    if (!/^ldaps?:\/\//i.test(s.url)) throw new DirectoryUnavailable('目录服务器地址应以 ldap:// 或 ldaps:// 开头');
    const tlsOptions = { rejectUnauthorized: s.tlsVerify };
    // tlsOptions make the client speak TLS from the start: only for ldaps://
    const secure = s.url.toLowerCase().startsWith('ldaps://');
    const client = new Client({ url: s.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS, ...(secure ? { tlsOptions } : {}) });
    try {
      if (s.startTls && s.url.toLowerCase().startsWith('ldap://')) await client.startTLS(tlsOptions);
    } catch (err) {
      await client.unbind().catch(() => undefined);
      throw new DirectoryUnavailable(`无法与目录服务器建立 StartTLS 加密连接：${(err as Error).message}`);
    }
    return client;
  }

  private async serviceClient(): Promise<{ client: Client; s: LdapSettings }> {
    const { settings: s, bindPassword } = await this.settings();
    const client = await this.connect(s);
    try {
      if (s.bindDn) await client.bind(s.bindDn, bindPassword);
    } catch (err) {
      await client.unbind().catch(() => undefined);
      if (err instanceof InvalidCredentialsError) throw new DirectoryUnavailable('目录服务器拒绝了绑定账号（绑定 DN 或密码不正确）');
      throw new DirectoryUnavailable(`无法连接目录服务器：${describe(err)}`);
    }
    return { client, s };
  }

  /** 测试连接: binds and counts the people of the filter (paged). */
  async test(): Promise<{ people: number; sample: string[] }> {
    const people = await this.people();
    return { people: people.length, sample: people.slice(0, 5).map((p) => `${p.userName}（${p.nickName}）`) };
  }

  /** The people and (when a group filter is set) the groups of the directory. */
  async read(): Promise<DirectoryAnswer> {
    const people = await this.people();
    const { settings: s } = await this.settings();
    if (!s.groupFilter) return { people, groups: [] };
    const byDn = new Map(people.map((p) => [normaliseDn(p.dn ?? ''), p.externalId]));
    const { client } = await this.serviceClient();
    const groups: DirectoryGroup[] = [];
    try {
      const base = s.groupBaseDn || s.baseDn;
      for await (const page of client.searchPaginated(base, {
        scope: 'sub',
        filter: s.groupFilter,
        attributes: [s.groupNameAttribute, s.groupMemberAttribute, 'entryUUID'],
        paged: { pageSize: PAGE_SIZE },
      })) {
        for (const e of page.searchEntries) {
          const name = first(e[s.groupNameAttribute]);
          if (!name) continue;
          const raw = e[s.groupMemberAttribute];
          const dns = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
          const memberIds = dns.map((dn) => byDn.get(normaliseDn(dn))).filter((x): x is string => !!x);
          groups.push({ externalId: first(e.entryUUID) || e.dn.toLowerCase(), name, memberIds: [...new Set(memberIds)] });
        }
      }
    } catch (err) {
      throw new DirectoryUnavailable(`读取目录中的用户组失败：${describe(err)}`);
    } finally {
      await client.unbind().catch(() => undefined);
    }
    return { people, groups };
  }

  /** Every person under the base DN that the filter selects, in pages. */
  async people(): Promise<DirectoryEntry[]> {
    const { client, s } = await this.serviceClient();
    const a = s.attributes;
    const attributes = [...new Set([a.userName, a.displayName, a.mail, a.mobile, a.employeeNo, 'entryUUID', 'objectGUID', ...(s.departmentsFrom === 'attribute' ? [s.departmentAttribute] : [])])];
    const out: DirectoryEntry[] = [];
    try {
      for await (const page of client.searchPaginated(s.baseDn, { scope: 'sub', filter: s.userFilter || '(objectClass=*)', attributes, paged: { pageSize: PAGE_SIZE }, explicitBufferAttributes: ['objectGUID'] })) {
        for (const e of page.searchEntries) {
          const userName = first(e[a.userName]);
          if (!userName) continue;
          const guid = e.objectGUID;
          const externalId = first(e.entryUUID) || (Buffer.isBuffer(guid) ? guid.toString('hex') : '') || e.dn.toLowerCase();
          out.push({
            dn: e.dn,
            externalId,
            userName,
            nickName: first(e[a.displayName]) || userName,
            email: first(e[a.mail]),
            mobile: first(e[a.mobile]),
            employeeNo: first(e[a.employeeNo]),
            deptPath: s.departmentsFrom === 'attribute' ? first(e[s.departmentAttribute]).split('/').map((x) => x.trim()).filter(Boolean) : ouPath(e.dn, s.baseDn),
          });
        }
      }
    } catch (err) {
      throw new DirectoryUnavailable(`读取目录失败：${describe(err)}`);
    } finally {
      await client.unbind().catch(() => undefined);
    }
    return out;
  }

  /**
   * Sign-in by the directory: the person's DN is found with the service account, then the
   * password is tried by binding as that DN. false: no such person or a wrong password;
   * DirectoryUnavailable: the directory cannot answer.
   */
  async authenticate(userName: string, password: string): Promise<boolean> {
    if (!password) return false;
    const { client, s } = await this.serviceClient();
    let dn: string | undefined;
    try {
      const byName = new EqualityFilter({ attribute: s.attributes.userName, value: userName }).toString();
      const base = s.userFilter ? `(&${s.userFilter}${byName})` : byName;
      const { searchEntries } = await client.search(s.baseDn, { scope: 'sub', filter: base, attributes: ['dn'], sizeLimit: 2 });
      if (searchEntries.length === 1) dn = searchEntries[0].dn;
    } catch (err) {
      throw new DirectoryUnavailable(`读取目录失败：${describe(err)}`);
    } finally {
      await client.unbind().catch(() => undefined);
    }
    if (!dn) return false;
    const personal = await this.connect(s);
    try {
      await personal.bind(dn, password);
      return true;
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return false;
      throw new DirectoryUnavailable(`无法连接目录服务器：${describe(err)}`);
    } finally {
      await personal.unbind().catch(() => undefined);
    }
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ECONNREFUSED') return '连接被拒绝';
  if (e?.code === 'ENOTFOUND') return '找不到该主机';
  if (e?.code === 'ETIMEDOUT' || /timeout/i.test(String(e?.message))) return '连接超时';
  return e?.message ?? String(err);
}
