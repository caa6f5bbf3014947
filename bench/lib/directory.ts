// A private OpenLDAP directory for the benchmark of 目录同步 (figure 8): the fixture of the
// server's tests (server/test/support/slapd.ts), run through tsx as a child process.
//   tsx bench/lib/directory.ts <people> <departments> <seed>
// prints one JSON line (url, baseDn, bindDn, bindPassword and the counts) on stdout once
// slapd answers, and stops slapd (removing its folder) when its stdin closes.
import { startDirectory } from '../../server/test/support/slapd';

async function main(): Promise<void> {
  const [people, departments, seed] = process.argv.slice(2).map(Number);
  const t0 = Date.now();
  const dir = await startDirectory({ people, departments, seed });
  const info = {
    url: dir.url,
    baseDn: dir.baseDn,
    bindDn: dir.bindDn,
    bindPassword: dir.bindPassword,
    people: dir.people.length,
    active: dir.people.filter((p) => !p.disabled).length,
    departments: dir.departments.length,
    startMs: Date.now() - t0,
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
