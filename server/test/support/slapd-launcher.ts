// The private OpenLDAP of slapd.ts as a child process, for the end-to-end tests and the
// benchmark (plain .mjs, run through tsx):
//   tsx server/test/support/slapd-launcher.ts <people> [departments] [seed]
// prints one JSON line (url, baseDn, bindDn, bindPassword, the people, the departments' paths and
// the start time) on stdout once slapd answers, and stops slapd (removing its folder) when its
// stdin closes.
import { startDirectory } from './slapd';

async function main(): Promise<void> {
  const [people, departments, seed] = process.argv.slice(2).map(Number);
  const t0 = Date.now();
  const dir = await startDirectory({ people: people || 200, departments: departments || undefined, seed: seed || 1 });
  const info = {
    url: dir.url,
    baseDn: dir.baseDn,
    bindDn: dir.bindDn,
    bindPassword: dir.bindPassword,
    people: dir.people.map((p) => ({ uid: p.uid, cn: p.cn, ouPath: p.ouPath, disabled: p.disabled })),
    departments: dir.departments.map((d) => d.path),
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
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
