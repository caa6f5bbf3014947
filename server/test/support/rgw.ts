// A private S3 server for the tests and the benchmark: scripts/rgw.sh (Ceph's RADOS Gateway from
// Debian's packages, objects in memory) run as a child whose standard input is a pipe from this
// process: closing it (stop(), or this process ending in any way) stops the daemons and removes
// their folder.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

export const RGW_SCRIPT = path.resolve(__dirname, '../../../scripts/rgw.sh');

export interface ObjectStoreServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** how long the start took (ms) */
  startMs: number;
  /** the environment a server needs to keep its contents in `bucket` of this store */
  env(bucket: string, prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

/** Whether Debian's ceph-mon, ceph-osd and radosgw are installed. */
export function objectStoreAvailable(): boolean {
  return ['/usr/bin/radosgw', '/usr/bin/ceph-mon', '/usr/bin/ceph-osd'].every((f) => fs.existsSync(f));
}

export async function startObjectStore(): Promise<ObjectStoreServer> {
  const child: ChildProcess = spawn('bash', [RGW_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += d.toString();
  });
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  const lines = readline.createInterface({ input: child.stdout! });
  const first = await Promise.race([
    new Promise<string>((resolve) => lines.once('line', resolve)),
    exited.then((code) => {
      throw new Error(`scripts/rgw.sh exited (${code}) before the gateway answered:\n${stderr}`);
    }),
  ]);
  const info = JSON.parse(first) as { endpoint: string; accessKeyId: string; secretAccessKey: string; region: string; startMs: number };
  let stopping: Promise<void> | null = null;
  return {
    ...info,
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
          child.stdin!.end();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}
