// A private S3 server for the end-to-end tests: scripts/rgw.sh (Ceph's RADOS Gateway from
// Debian's packages, objects in memory) run as a child whose standard input is a pipe from this
// process; closing it (stop(), or this process ending in any way) stops the daemons and removes
// their folder. The end-to-end tests and the benchmark use this one; the server's jest tests
// have the TypeScript twin server/test/support/rgw.ts.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
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

/**
 * A fresh gateway makes its pools on first use: about 3 s for the first bucket, 2 s for the
 * first object and 2 s for the first multipart upload, once in the cluster's life. A benchmark
 * pays that here, before it measures (a bucket of its own, removed again).
 * @param {{ endpoint: string, accessKeyId: string, secretAccessKey: string, region: string }} info
 */
export async function warmObjectStore(info) {
  const require = createRequire(path.join(ROOT, 'server', 'package.json'));
  const s3 = require('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    endpoint: info.endpoint,
    region: info.region,
    forcePathStyle: true,
    credentials: { accessKeyId: info.accessKeyId, secretAccessKey: info.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    expectContinueHeader: false,
  });
  const Bucket = `warm-up-${process.pid}`;
  try {
    await client.send(new s3.CreateBucketCommand({ Bucket }));
    await client.send(new s3.PutObjectCommand({ Bucket, Key: 'object', Body: Buffer.alloc(1024) }));
    const { UploadId } = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key: 'parts' }));
    await client.send(new s3.UploadPartCommand({ Bucket, Key: 'parts', UploadId, PartNumber: 1, Body: Buffer.alloc(1024) }));
    await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key: 'parts', UploadId }));
    await client.send(new s3.DeleteObjectCommand({ Bucket, Key: 'object' }));
    await client.send(new s3.DeleteBucketCommand({ Bucket }));
  } finally {
    client.destroy();
  }
}
