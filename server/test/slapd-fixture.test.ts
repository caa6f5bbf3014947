// The private OpenLDAP directory of the directory sign-in and sync tests (support/slapd.ts):
// 2,000 generated people in a 总部 tree, reached with the OpenLDAP client tools. Paged searches
// return everything, unpaged ones stop at the size limit, people bind with their password, and
// an LDIF change set moves a person between syncs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describeDirectory, PERSON_PASSWORD, SIZE_LIMIT, SLAPD, startDirectory, type Directory } from './support/slapd';

const available = fs.existsSync(SLAPD);
if (!available) console.warn(`${SLAPD} is missing (Debian packages slapd and ldap-utils): the directory fixture tests are skipped`);
const maybe = available ? describe : describe.skip;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** LDIF from ldapsearch -LLL -o ldif-wrap=no: one record per entry, base64 values decoded */
function parseLdif(text: string): Record<string, string[]>[] {
  return text
    .split(/\n\n+/)
    .filter((block) => /^dn::? /m.test(block))
    .map((block) => {
      const rec: Record<string, string[]> = {};
      for (const line of block.split('\n')) {
        const m = /^([\w;.-]+)(::?) ?(.*)$/.exec(line);
        if (!m) continue;
        const value = m[2] === '::' ? Buffer.from(m[3], 'base64').toString('utf8') : m[3];
        (rec[m[1]] ??= []).push(value);
      }
      return rec;
    });
}

maybe('private OpenLDAP directory', () => {
  const content = describeDirectory({ people: 2000 });
  let dir: Directory;

  const search = (base: string, args: string[], paged = true) =>
    run('ldapsearch', ['-x', '-H', dir.url, '-D', dir.bindDn, '-w', dir.bindPassword, '-LLL', '-o', 'ldif-wrap=no', ...(paged ? ['-E', 'pr=500/noprompt'] : []), '-b', base, ...args]);
  const dns = (r: Run) => parseLdif(r.stdout).map((e) => e.dn[0]);

  beforeAll(async () => {
    dir = await startDirectory({ people: 2000 });
  }, 30_000);
  afterAll(() => dir?.stop());

  test('the content is generated from the seed: 20 OUs in three levels, unique people, 1 % under 离职, 5 groups', () => {
    expect(describeDirectory({ people: 2000 })).toEqual(content);
    expect(describeDirectory({ people: 2000, seed: 2 }).people).not.toEqual(content.people);
    expect(dir.people).toEqual(content.people);

    expect(content.departments).toHaveLength(20);
    expect(content.departments[0]).toMatchObject({ name: '总部', path: ['总部'], level: 1, dn: 'ou=总部,dc=example,dc=com' });
    expect(new Set(content.departments.map((d) => d.level))).toEqual(new Set([1, 2, 3]));
    expect(content.departments.find((d) => d.level === 3)!.dn).toMatch(/^ou=[^,]+,ou=[^,]+中心,ou=总部,dc=example,dc=com$/);

    const { people } = content;
    expect(people).toHaveLength(2000);
    for (const key of ['uid', 'dn', 'mail', 'mobile', 'employeeNumber'] as const) expect(new Set(people.map((p) => p[key])).size).toBe(2000);
    expect(people.every((p) => /^1[3-9]\d{9}$/.test(p.mobile) && /^[\u4e00-\u9fff]{2,5}$/.test(p.cn) && p.mail === `${p.uid}@example.com`)).toBe(true);
    expect(people[0].employeeNumber).toBe('E00001');
    const disabled = people.filter((p) => p.disabled);
    expect(disabled).toHaveLength(20);
    expect(disabled.every((p) => p.ouPath.join('/') === '离职' && p.dn.endsWith(',ou=离职,dc=example,dc=com'))).toBe(true);
    expect(people.filter((p) => !p.disabled).every((p) => p.ouPath[0] === '总部')).toBe(true);

    expect(content.groups.map((g) => g.cn)).toEqual(['管理层', '研发中心全员', '云文档管理员', '项目组-云文档', '新员工']);
    expect(content.groups.every((g) => g.members.length > 0 && g.dn.endsWith(',ou=groups,dc=example,dc=com'))).toBe(true);
  });

  test('paged searches return every person, OU and group', async () => {
    const persons = await search(dir.baseDn, ['(objectClass=inetOrgPerson)', '1.1']);
    expect(persons.code).toBe(0);
    expect(new Set(dns(persons))).toEqual(new Set(content.people.map((p) => p.dn)));

    const ous = await search('ou=总部,dc=example,dc=com', ['(objectClass=organizationalUnit)', '1.1']);
    expect(ous.code).toBe(0);
    expect(new Set(dns(ous))).toEqual(new Set(content.departments.map((d) => d.dn)));

    const left = await search('ou=离职,dc=example,dc=com', ['-s', 'one', '(objectClass=inetOrgPerson)', '1.1']);
    expect(new Set(dns(left))).toEqual(new Set(content.people.filter((p) => p.disabled).map((p) => p.dn)));

    const groups = parseLdif((await search('ou=groups,dc=example,dc=com', ['(objectClass=groupOfNames)', 'cn', 'member'])).stdout);
    expect(groups.map((g) => [g.cn[0], g.member.length])).toEqual(content.groups.map((g) => [g.cn, g.members.length]));

    const someone = content.people[1234];
    const [entry] = parseLdif((await search(dir.baseDn, [`(uid=${someone.uid})`, 'cn', 'sn', 'mail', 'mobile', 'employeeNumber'])).stdout);
    expect(entry).toEqual({
      dn: [someone.dn],
      cn: [someone.cn],
      sn: [someone.sn],
      mail: [someone.mail],
      mobile: [someone.mobile],
      employeeNumber: [someone.employeeNumber],
    });
  });

  test('a search without paging stops at the size limit', async () => {
    const r = await search(dir.baseDn, ['(objectClass=inetOrgPerson)', '1.1'], false);
    expect(r.code).toBe(4);
    expect(r.stderr + r.stdout).toMatch(/Size limit exceeded/);
    expect(dns(r)).toHaveLength(SIZE_LIMIT);
  });

  test('people bind with their own password, disabled people too; a wrong password is refused', async () => {
    const [active, off] = [content.people.find((p) => p.ouPath.length === 3)!, content.people.find((p) => p.disabled)!];
    for (const p of [active, off]) {
      const r = await run('ldapwhoami', ['-x', '-H', dir.url, '-D', p.dn, '-w', PERSON_PASSWORD(p.uid)]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(`dn:${p.dn}`);
    }
    const wrong = await run('ldapwhoami', ['-x', '-H', dir.url, '-D', active.dn, '-w', 'not-the-password']);
    expect(wrong.code).toBe(49);
  });

  test('ldapModify moves a person to another OU, keeping the entryUUID', async () => {
    const p = content.people.find((x) => x.ouPath.length === 3 && x.ouPath[1] === '研发中心')!;
    const target = content.departments.find((d) => d.level === 3 && d.path[1] === '市场中心')!;
    const before = parseLdif((await search(p.dn, ['-s', 'base', 'entryUUID'])).stdout)[0];

    await dir.ldapModify(`dn: ${p.dn}\nchangetype: modrdn\nnewrdn: uid=${p.uid}\ndeleteoldrdn: 1\nnewsuperior: ${target.dn}\n`);

    const moved = parseLdif((await search(dir.baseDn, [`(uid=${p.uid})`, 'entryUUID'])).stdout);
    expect(moved).toEqual([{ dn: [`uid=${p.uid},${target.dn}`], entryUUID: before.entryUUID }]);
    expect((await search(p.dn, ['-s', 'base', '1.1'])).code).toBe(32);
    await expect(dir.ldapModify(`dn: ${p.dn}\nchangetype: delete\n`)).rejects.toThrow(/No such object/);
  });

  test('stop ends slapd and removes its folder', async () => {
    expect(fs.existsSync(dir.dir)).toBe(true);
    await dir.stop();
    expect(fs.existsSync(dir.dir)).toBe(false);
    const r = await run('ldapsearch', ['-x', '-H', dir.url, '-o', 'nettimeout=2', '-b', dir.baseDn, '-s', 'base']);
    expect(r.code).toBe(255);
  });
});
