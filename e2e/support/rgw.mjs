// A private S3 server for the end-to-end tests: scripts/rgw.sh (Ceph's RADOS Gateway from
// Debian's packages, objects in memory) run as a child whose standard input is a pipe from this
// process; closing it (stop(), or this process ending in any way) stops the daemons and removes
// their folder. The end-to-end tests and the benchmark use this one; the server's jest tests
// have the TypeScript twin server/test/support/rgw.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import path from 'node:path';
import { ROOT } from '../harness.mjs';

export const RGW_SCRIPT = path.join(ROOT, 'scripts', 'rgw.sh');
const TOOLS = ['/usr/bin/radosgw', '/usr/bin/ceph-mon', '/usr/bin/ceph-osd'];

/** null when Debian's ceph-mon, ceph-osd and radosgw are installed, else why not. */
export function objectStoreMissing() {
  const missing = TOOLS.filter((f) => !fs.existsSync(f));
  return missing.length ? `${missing.join(', ')} missing (Debian packages ceph-mon, ceph-osd, radosgw)` : null;
}

/**
 * Starts scripts/rgw.sh and waits for its JSON line.
 * @returns {Promise<{ endpoint: string, accessKeyId: string, secretAccessKey: string, region: string, startMs: number,
 *   pid: number, env: (bucket: string, prefix?: string) => Record<string,string>, stop: () => Promise<void> }>}
 */
export async function startObjectStore() {
  const child = spawn('bash', [RGW_SCRIPT], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (stderr.length < 64 * 1024) stderr += d.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  const lines = readline.createInterface({ input: child.stdout });
  const first = await Promise.race([
    new Promise((resolve) => lines.once('line', resolve)),
    exited.then((code) => {
      throw new Error(`scripts/rgw.sh exited (${code}) before the gateway answered:\n${stderr}`);
    }),
  ]);
  const info = JSON.parse(first);
  let stopping = null;
  return {
    ...info,
    /** the shell running rgw.sh: the gateway's daemons are its descendants */
    pid: child.pid,
    env: (bucket, prefix) => ({
      S3_ENDPOINT: info.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: info.region,
      S3_ACCESS_KEY_ID: info.accessKeyId,
      S3_SECRET_ACCESS_KEY: info.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.stdin.end();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}
