// A private OpenLDAP directory for the end-to-end tests of 目录同步: the fixture of the server's
// tests (server/test/support/slapd.ts), run through tsx as a child process.
//   tsx e2e/support/directory.ts <people> [seed]
// prints one JSON line (url, baseDn, bindDn, bindPassword, the people and the departments) on
// stdout once slapd answers, and stops slapd (removing its folder) when its stdin closes.
import { startDirectory } from '../../server/test/support/slapd';

async function main(): Promise<void> {
  const [people, seed] = process.argv.slice(2).map(Number);
  const dir = await startDirectory({ people: people || 200, seed: seed || 1 });
  const info = {
    url: dir.url,
    baseDn: dir.baseDn,
    bindDn: dir.bindDn,
    bindPassword: dir.bindPassword,
    people: dir.people.map((p) => ({ uid: p.uid, cn: p.cn, ouPath: p.ouPath, disabled: p.disabled })),
    departments: dir.departments.map((d) => d.path),
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    dir.stop().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
