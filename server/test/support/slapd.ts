// A private, throw-away OpenLDAP directory for the tests and the benchmark of 云文档's directory
// (LDAP) sign-in and people sync: Debian's slapd, run as the current user on a loopback port,
// with its configuration and its database in a temporary folder. The content is generated
// (deterministically from a seed), loaded offline with slapadd, and slapd is stopped and the
// folder removed by stop(), at process exit, or, should the process be killed, by the small
// shell watchdog that starts slapd and ends it when its stdin (a pipe from this process) closes.
//
// Layout of the directory (suffix dc=example,dc=com):
//   dc=example,dc=com                          dcObject + organization
//   cn=admin,dc=example,dc=com                 the bind account (simpleSecurityObject +
//                                              organizationalRole, as Debian's own setup does):
//                                              reads everything, writes everything
//   ou=总部,dc=example,dc=com                  the organisation: organizationalUnit entries in
//     ou=研发中心,ou=总部,...                  three levels (总部, centres, groups); `departments`
//       ou=综合组,ou=研发中心,ou=总部,...        counts all of them, 总部 included. OU names are
//       ou=前端组,ou=研发中心,ou=总部,...        unique among siblings only: every centre has its
//                                              own 综合组.
//   ou=离职,dc=example,dc=com                  disabled people (about 1 %): the directory marks
//                                              a person disabled by moving the entry here, out of
//                                              the 总部 tree; they can still bind, the product
//                                              decides what a disabled person may do.
//   ou=groups,dc=example,dc=com                groupOfNames groups (member = person DNs; no
//                                              referential integrity: a moved or removed person
//                                              keeps the old DN in its groups).
// People are inetOrgPerson entries uid=<pinyin>,<their OU>: uid (pinyin of the name, with a
// number when taken: zhangwei, zhangwei2), cn and displayName (Chinese name, not unique), sn and
// givenName, mail (<uid>@example.com), mobile (11-digit mainland number, unique), employeeNumber
// (E00001…), userPassword `Passw0rd-<uid>` in plain text. One person sits directly in 总部 and one
// in each centre; the others are in the groups (level 3), or in centres without groups.
// Non-ASCII values (and DNs) are base64 in the LDIF (`attr:: …`).
//
// Limits: the default size limit of 500 entries per search applies to everybody, the bind
// account included, so a client must use the paged-results control; paged searches of the bind
// account have no total limit. (The bind account is an ordinary entry, not slapd's rootdn: the
// rootdn is exempt from every limit, and would never need paging.) Anonymous clients may only bind.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SLAPD = '/usr/sbin/slapd';
export const SLAPADD = '/usr/sbin/slapadd';
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

export const BASE_DN = 'dc=example,dc=com';
export const ADMIN_DN = `cn=admin,${BASE_DN}`;
export const ROOT_OU = '总部';
export const DISABLED_OU = '离职';
export const GROUPS_OU = 'groups';
export const MAIL_DOMAIN = 'example.com';
/** The directory's default size limit (entries per search without paging). */
export const SIZE_LIMIT = 500;

export const PERSON_PASSWORD = (uid: string) => `Passw0rd-${uid}`;

export interface DirectoryOptions {
  people: number;
  /** OUs of the 总部 tree, 总部 included (default: one per 100 people, at least 1) */
  departments?: number;
  seed?: number;
}

export interface Person {
  uid: string;
  dn: string;
  cn: string;
  sn: string;
  givenName: string;
  mail: string;
  mobile: string;
  employeeNumber: string;
  /** OU names from the top OU under the base down: ['总部', '研发中心', '前端组'], or ['离职'] */
  ouPath: string[];
  disabled: boolean;
}

export interface Department {
  dn: string;
  name: string;
  /** ['总部'], ['总部', '研发中心'], ['总部', '研发中心', '前端组'] */
  path: string[];
  level: 1 | 2 | 3;
}

export interface Group {
  dn: string;
  cn: string;
  description: string;
  /** member DNs */
  members: string[];
}

export interface DirectoryContent {
  baseDn: string;
  people: Person[];
  departments: Department[];
  groups: Group[];
}

export interface Directory extends DirectoryContent {
  url: string;
  baseDn: string;
  bindDn: string;
  bindPassword: string;
  /** the temporary folder (configuration, LDIF, database) */
  dir: string;
  stop(): Promise<void>;
  /** applies an LDIF change set (add, modify, delete, modrdn) as the bind account */
  ldapModify(ldif: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// LDIF and DN helpers

/** `attr: value`, or `attr:: base64` when the value is not a safe ASCII string (RFC 2849). */
export function ldifLine(attr: string, value: string): string {
  const safe = /^(?:[\x01-\x09\x0b\x0c\x0e-\x1f\x21-\x39\x3b\x3d-\x7f][\x01-\x09\x0b\x0c\x0e-\x7f]*)?$/.test(value) && !value.endsWith(' ');
  return safe ? `${attr}: ${value}` : `${attr}:: ${Buffer.from(value, 'utf8').toString('base64')}`;
}

/** Escapes an RDN value (RFC 4514). */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');
}

const ouDn = (names: string[]) => [...names].reverse().map((n) => `ou=${escapeDnValue(n)}`).concat(BASE_DN).join(',');

// ---------------------------------------------------------------------------------------------
// Generated content

/** mulberry32: a small seeded PRNG, numbers in [0, 1) */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Common surnames, most frequent first, with their pinyin (three compound surnames included).
const SURNAMES: [string, string][] = [
  ['王', 'wang'], ['李', 'li'], ['张', 'zhang'], ['刘', 'liu'], ['陈', 'chen'], ['杨', 'yang'], ['黄', 'huang'],
  ['赵', 'zhao'], ['吴', 'wu'], ['周', 'zhou'], ['徐', 'xu'], ['孙', 'sun'], ['马', 'ma'], ['朱', 'zhu'],
  ['胡', 'hu'], ['郭', 'guo'], ['何', 'he'], ['高', 'gao'], ['林', 'lin'], ['罗', 'luo'], ['郑', 'zheng'],
  ['梁', 'liang'], ['谢', 'xie'], ['宋', 'song'], ['唐', 'tang'], ['许', 'xu'], ['韩', 'han'], ['冯', 'feng'],
  ['邓', 'deng'], ['曹', 'cao'], ['彭', 'peng'], ['曾', 'zeng'], ['肖', 'xiao'], ['田', 'tian'], ['董', 'dong'],
  ['袁', 'yuan'], ['潘', 'pan'], ['于', 'yu'], ['蒋', 'jiang'], ['蔡', 'cai'], ['余', 'yu'], ['杜', 'du'],
  ['叶', 'ye'], ['程', 'cheng'], ['苏', 'su'], ['魏', 'wei'], ['吕', 'lv'], ['丁', 'ding'], ['任', 'ren'],
  ['沈', 'shen'], ['姚', 'yao'], ['卢', 'lu'], ['姜', 'jiang'], ['崔', 'cui'], ['钟', 'zhong'], ['谭', 'tan'],
  ['陆', 'lu'], ['汪', 'wang'], ['范', 'fan'], ['金', 'jin'], ['石', 'shi'], ['廖', 'liao'], ['贾', 'jia'],
  ['夏', 'xia'], ['韦', 'wei'], ['方', 'fang'], ['白', 'bai'], ['邹', 'zou'], ['孟', 'meng'], ['熊', 'xiong'],
  ['秦', 'qin'], ['邱', 'qiu'], ['江', 'jiang'], ['尹', 'yin'], ['薛', 'xue'], ['段', 'duan'], ['雷', 'lei'],
  ['侯', 'hou'], ['龙', 'long'], ['史', 'shi'], ['陶', 'tao'], ['黎', 'li'], ['贺', 'he'], ['顾', 'gu'],
  ['毛', 'mao'], ['郝', 'hao'], ['龚', 'gong'], ['邵', 'shao'], ['万', 'wan'], ['钱', 'qian'], ['严', 'yan'],
  ['武', 'wu'], ['戴', 'dai'], ['莫', 'mo'], ['孔', 'kong'], ['欧阳', 'ouyang'], ['司马', 'sima'], ['上官', 'shangguan'],
];
const GIVEN: [string, string][] = [
  ['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['敏', 'min'], ['静', 'jing'], ['丽', 'li'], ['强', 'qiang'],
  ['磊', 'lei'], ['军', 'jun'], ['洋', 'yang'], ['勇', 'yong'], ['艳', 'yan'], ['杰', 'jie'], ['娟', 'juan'],
  ['涛', 'tao'], ['明', 'ming'], ['超', 'chao'], ['秀', 'xiu'], ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'],
  ['英', 'ying'], ['华', 'hua'], ['玉', 'yu'], ['文', 'wen'], ['建', 'jian'], ['国', 'guo'], ['红', 'hong'],
  ['志', 'zhi'], ['海', 'hai'], ['波', 'bo'], ['鹏', 'peng'], ['辉', 'hui'], ['宇', 'yu'], ['浩', 'hao'],
  ['晨', 'chen'], ['欣', 'xin'], ['怡', 'yi'], ['婷', 'ting'], ['雪', 'xue'], ['琳', 'lin'], ['佳', 'jia'],
  ['子', 'zi'], ['涵', 'han'], ['博', 'bo'], ['思', 'si'], ['雨', 'yu'], ['梓', 'zi'], ['轩', 'xuan'],
  ['睿', 'rui'], ['诗', 'shi'], ['宁', 'ning'], ['嘉', 'jia'], ['晓', 'xiao'], ['东', 'dong'], ['亮', 'liang'],
  ['斌', 'bin'], ['凯', 'kai'], ['慧', 'hui'], ['俊', 'jun'],
];
const CENTRES = [
  '研发中心', '市场中心', '职能中心', '销售中心', '产品中心', '运营中心', '财务中心', '客户服务中心',
  '供应链中心', '质量管理中心', '信息技术中心', '战略发展中心', '品牌中心', '采购中心', '生产制造中心',
  '物流中心', '国际业务中心', '数据中心', '安全中心', '创新研究院', '华东区域中心', '华南区域中心',
  '华北区域中心', '西南区域中心', '西北区域中心', '东北区域中心', '华中区域中心',
];
// Groups of the first three centres, then of every other centre; each centre starts with 综合组.
const CENTRE_GROUPS = [
  ['前端组', '后端组', '测试组', '运维组', '架构组', '算法组', '移动端组', '数据平台组', '安全组', '基础设施组'],
  ['品牌组', '渠道组', '推广组', '公关组', '活动组', '市场研究组', '内容组', '媒介组'],
  ['行政组', '人事组', '招聘组', '培训组', '法务组', '财务组', '审计组', '采购组', 'IT支持组'],
];
const OTHER_GROUPS = ['业务一组', '业务二组', '业务三组', '项目管理组', '业务支持组', '数据分析组', '客户成功组', '质量组', '流程优化组', '规划组'];
const MOBILE_PREFIXES = ['130', '131', '132', '133', '135', '136', '137', '138', '139', '150', '151', '152', '155', '156', '157', '158', '159', '166', '176', '177', '180', '181', '182', '185', '186', '187', '188', '189', '198', '199'];

/** `base`, then `base2`, `base3`… until the name is not in `taken` */
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

interface Generated extends DirectoryContent {
  ldif: string;
}

function generate(options: DirectoryOptions): Generated {
  const peopleCount = Math.max(0, Math.floor(options.people));
  const deptCount = Math.max(1, Math.floor(options.departments ?? Math.round(peopleCount / 100)));
  const rand = prng(options.seed ?? 1);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];

  // The 总部 tree: centres (level 2), then groups (level 3) dealt round-robin over the centres.
  const departments: Department[] = [{ dn: ouDn([ROOT_OU]), name: ROOT_OU, path: [ROOT_OU], level: 1 }];
  const below = deptCount - 1;
  const centreCount = below === 0 ? 0 : Math.min(below, Math.max(1, Math.round(Math.sqrt(below / 2))));
  const centreNames = new Set<string>();
  const centres: { dept: Department; children: Department[]; taken: Set<string>; pool: string[] }[] = [];
  for (let i = 0; i < centreCount; i++) {
    const name = uniqueName(CENTRES[i % CENTRES.length], centreNames);
    const dept: Department = { dn: ouDn([ROOT_OU, name]), name, path: [ROOT_OU, name], level: 2 };
    departments.push(dept);
    centres.push({ dept, children: [], taken: new Set(), pool: ['综合组', ...(CENTRE_GROUPS[i] ?? OTHER_GROUPS)] });
  }
  for (let j = 0; j < below - centreCount; j++) {
    const c = centres[j % centreCount];
    const name = uniqueName(c.pool[c.children.length % c.pool.length], c.taken);
    const p = [...c.dept.path, name];
    const dept: Department = { dn: ouDn(p), name, path: p, level: 3 };
    c.children.push(dept);
  }
  for (const c of centres) departments.push(...c.children);
  const leaves = centres.flatMap((c) => (c.children.length ? c.children : [c.dept]));

  // People: one in 总部, one per centre, at least one per leaf, the rest at random over the leaves.
  const homes: Department[] = [departments[0], ...centres.map((c) => c.dept), ...leaves].slice(0, peopleCount);
  while (homes.length < peopleCount) homes.push(pick(leaves.length ? leaves : [departments[0]]));
  const heads = Math.min(peopleCount, 1 + centreCount);
  const disabledCount = Math.min(Math.round(peopleCount / 100), peopleCount - heads);
  const disabled = new Set<number>();
  while (disabled.size < disabledCount) disabled.add(heads + Math.floor(rand() * (peopleCount - heads)));

  const uids = new Set<string>();
  const mobiles = new Set<string>();
  const width = Math.max(5, String(peopleCount).length);
  const people: Person[] = [];
  for (let i = 0; i < peopleCount; i++) {
    // Skewed towards the common surnames, as real name lists are.
    const [sn, snPinyin] = SURNAMES[Math.floor(rand() * rand() * SURNAMES.length)];
    const given = Array.from({ length: rand() < 0.35 ? 1 : 2 }, () => pick(GIVEN));
    const givenName = given.map((g) => g[0]).join('');
    const uid = uniqueName(snPinyin + given.map((g) => g[1]).join(''), uids);
    let mobile: string;
    do mobile = pick(MOBILE_PREFIXES) + String(Math.floor(rand() * 1e8)).padStart(8, '0');
    while (mobiles.has(mobile));
    mobiles.add(mobile);
    const off = disabled.has(i);
    const ouPath = off ? [DISABLED_OU] : homes[i].path;
    people.push({
      uid,
      dn: `uid=${escapeDnValue(uid)},${ouDn(ouPath)}`,
      cn: sn + givenName,
      sn,
      givenName,
      mail: `${uid}@${MAIL_DOMAIN}`,
      mobile,
      employeeNumber: `E${String(i + 1).padStart(width, '0')}`,
      ouPath,
      disabled: off,
    });
  }

  // Groups: the heads, the whole first centre, and a few hand-picked teams (one keeps a
  // disabled person, as directories without referential integrity do).
  const active = people.filter((p) => !p.disabled);
  const sample = (n: number) => {
    const chosen = new Set<Person>();
    while (chosen.size < Math.min(n, active.length)) chosen.add(pick(active));
    return [...chosen];
  };
  const firstCentre = centres[0]?.dept.name;
  const groupSpecs: [string, string, Person[]][] = [
    ['管理层', '总部与各中心负责人', people.slice(0, heads).filter((p) => !p.disabled)],
    ['研发中心全员', `${firstCentre ?? ROOT_OU}的全部在职人员`, active.filter((p) => (firstCentre ? p.ouPath[1] === firstCentre : true))],
    ['云文档管理员', '云文档系统管理员', sample(3)],
    ['项目组-云文档', '云文档项目组', [...sample(20), ...people.filter((p) => p.disabled).slice(0, 1)]],
    ['新员工', '本季度入职', sample(30)],
  ];
  const groups: Group[] = groupSpecs
    .filter(([, , members]) => members.length > 0)
    .map(([cn, description, members]) => ({ dn: `cn=${escapeDnValue(cn)},ou=${GROUPS_OU},${BASE_DN}`, cn, description, members: members.map((p) => p.dn) }));

  // LDIF, parents before children.
  const out: string[] = [];
  const entry = (dn: string, attrs: [string, string][]) => {
    out.push([ldifLine('dn', dn), ...attrs.map(([a, v]) => ldifLine(a, v))].join('\n') + '\n');
  };
  const ou = (dn: string, name: string) => entry(dn, [['objectClass', 'organizationalUnit'], ['ou', name]]);
  entry(BASE_DN, [['objectClass', 'dcObject'], ['objectClass', 'organization'], ['dc', 'example'], ['o', '示例科技有限公司']]);
  for (const d of departments) ou(d.dn, d.name);
  ou(ouDn([DISABLED_OU]), DISABLED_OU);
  ou(`ou=${GROUPS_OU},${BASE_DN}`, GROUPS_OU);
  for (const p of people) {
    entry(p.dn, [
      ['objectClass', 'inetOrgPerson'],
      ['uid', p.uid],
      ['cn', p.cn],
      ['displayName', p.cn],
      ['sn', p.sn],
      ['givenName', p.givenName],
      ['mail', p.mail],
      ['mobile', p.mobile],
      ['employeeNumber', p.employeeNumber],
      ['userPassword', PERSON_PASSWORD(p.uid)],
    ]);
  }
  for (const g of groups) {
    entry(g.dn, [['objectClass', 'groupOfNames'], ['cn', g.cn], ['description', g.description], ...g.members.map((m): [string, string] => ['member', m])]);
  }
  return { baseDn: BASE_DN, people, departments, groups, ldif: out.join('\n') };
}

/** The generated content for these options, without starting anything. */
export function describeDirectory(options: DirectoryOptions): DirectoryContent {
  return contentOf(generate(options));
}

function contentOf(g: Generated): DirectoryContent {
  return { baseDn: g.baseDn, people: g.people, departments: g.departments, groups: g.groups };
}

// ---------------------------------------------------------------------------------------------
// slapd

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], input?: string, timeout = 0): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { maxBuffer: 256 * 1024 * 1024, timeout, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === 'string') reject(err);
      else resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    // a tool that exits without reading its input (ldapsearch) closes the pipe: its exit code tells
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// Starts "$@" (slapd) and, when stdin closes (at stop(), or when this process dies), ends it and
// removes $SLAPD_DIR. When slapd exits by itself (a port taken), the folder stays for a retry.
const WATCHDOG = `exec 3<&0
"$@" </dev/null &
pid=$!
( read -r _ <&3; : >"$SLAPD_DIR/stopping"; kill "$pid" ) >/dev/null 2>&1 &
watcher=$!
wait "$pid"; status=$?
if [ -e "$SLAPD_DIR/stopping" ]; then rm -rf -- "$SLAPD_DIR"; else kill "$watcher" 2>/dev/null; fi
exit "$status"`;

function slapdConf(dir: string): string {
  return `# private test directory of 云文档
${['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include ${SCHEMA_DIR}/${s}.schema`).join('\n')}
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
modulepath ${MODULE_DIR}
moduleload back_mdb

database mdb
suffix "${BASE_DN}"
directory ${dir}/db
maxsize 1073741824
index objectClass eq
index uid,mail eq
# ${SIZE_LIMIT} entries per search for everybody; paged searches of the bind account have no total limit
sizelimit ${SIZE_LIMIT}
limits dn.exact="${ADMIN_DN}" size.prtotal=unlimited
access to attrs=userPassword
  by dn.exact="${ADMIN_DN}" write
  by self write
  by anonymous auth
  by * none
access to *
  by dn.exact="${ADMIN_DN}" write
  by users read
  by anonymous auth
`;
}

const live = new Set<{ dir: string; proc: ChildProcess }>();
let exitHookInstalled = false;

function killNow(dir: string, proc: ChildProcess) {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'slapd.pid'), 'utf8').trim());
    if (pid > 0) process.kill(pid, 'SIGKILL');
  } catch {
    // not started, or already gone
  }
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const s of live) {
      killNow(s.dir, s.proc);
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });
}

/** Generates the content, loads it with slapadd and starts slapd on a free loopback port. */
export async function startDirectory(options: DirectoryOptions): Promise<Directory> {
  const content = generate(options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-slapd-'));
  const bindPassword = crypto.randomBytes(12).toString('base64url');
  try {
    fs.mkdirSync(path.join(dir, 'db'));
    const conf = path.join(dir, 'slapd.conf');
    fs.writeFileSync(conf, slapdConf(dir));
    const admin = [
      ldifLine('dn', ADMIN_DN),
      'objectClass: simpleSecurityObject',
      'objectClass: organizationalRole',
      'cn: admin',
      ldifLine('description', '云文档目录同步账号'),
      ldifLine('userPassword', bindPassword),
    ];
    // The base entry comes first; the bind account right after it.
    const [baseEntry, ...rest] = content.ldif.split('\n\n');
    fs.writeFileSync(path.join(dir, 'data.ldif'), [baseEntry, admin.join('\n'), ...rest].join('\n\n'));
    const added = await run(SLAPADD, ['-q', '-f', conf, '-l', path.join(dir, 'data.ldif')]);
    if (added.code !== 0) throw new Error(`slapadd failed (${added.code}):\n${added.stderr}${added.stdout}`);

    let lastError = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const url = `ldap://127.0.0.1:${port}`;
      const started = await launch(dir, conf, url, content.baseDn, bindPassword);
      if ('error' in started) {
        lastError = started.error;
        if (/Address already in use/.test(lastError)) continue;
        break;
      }
      const { proc } = started;
      const handle = { dir, proc };
      live.add(handle);
      installExitHook();
      let stopping: Promise<void> | null = null;
      return {
        ...contentOf(content),
        url,
        bindDn: ADMIN_DN,
        bindPassword,
        dir,
        stop() {
          stopping ??= (async () => {
            if (proc.exitCode === null && proc.signalCode === null) {
              const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
              proc.stdin?.end();
              const timer = setTimeout(() => killNow(dir, proc), 5_000);
              await exited;
              clearTimeout(timer);
            }
            live.delete(handle);
            fs.rmSync(dir, { recursive: true, force: true });
          })();
          return stopping;
        },
        async ldapModify(ldif: string) {
          const r = await run('ldapmodify', ['-x', '-H', url, '-D', ADMIN_DN, '-w', bindPassword], ldif);
          if (r.code !== 0) throw new Error(`ldapmodify failed (${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
        },
      };
    }
    throw new Error(`slapd did not start:\n${lastError}`);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Starts slapd and waits (20 s at most) until it answers a base search. */
async function launch(dir: string, conf: string, url: string, baseDn: string, bindPassword: string): Promise<{ proc: ChildProcess } | { error: string }> {
  fs.rmSync(path.join(dir, 'slapd.pid'), { force: true });
  // -d none: stay in the foreground and print errors only.
  const proc = spawn('sh', ['-c', WATCHDOG, 'slapd-watchdog', SLAPD, '-f', conf, '-h', `${url}/`, '-d', 'none'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, SLAPD_DIR: dir },
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += d.toString();
  });
  let exitCode: number | null | undefined;
  const closed = new Promise<void>((resolve) => proc.once('close', (code, signal) => ((exitCode = code ?? (signal ? 128 : 1)), resolve())));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exitCode !== undefined) {
      await closed;
      proc.stdin?.destroy();
      return { error: `slapd exited (${exitCode}) on ${url}:\n${stderr}` };
    }
    const r = await run('ldapsearch', ['-x', '-H', url, '-o', 'nettimeout=2', '-D', ADMIN_DN, '-w', bindPassword, '-b', baseDn, '-s', 'base', '-LLL', '1.1'], '', 3_000);
    if (r.code === 0) return { proc };
    if (Date.now() > deadline) {
      proc.stdin?.end();
      killNow(dir, proc);
      await closed;
      throw new Error(`slapd did not answer on ${url} within 20 s (ldapsearch: ${r.stderr.trim()}); slapd's output:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
