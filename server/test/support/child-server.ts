// Runs the real 云文档 server as a child process (`node --import tsx server/src/server.ts`, as
// `npm run dev` does, in this process's own Node) on a temporary DATA_DIR, so that tests can
// kill it with SIGKILL and start it again on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const REPO = path.resolve(__dirname, '..', '..', '..');
const ENTRY = path.join(REPO, 'server', 'src', 'server.ts');
export const CHILD_ADMIN_PASSWORD = 'Child-Admin-Passw0rd!';

export interface ChildServer {
  proc: ChildProcess;
  url: string;
  output: () => string;
}

export interface ChildData {
  dataDir: string;
  databaseUrl: string | null;
  start(): Promise<ChildServer>;
  /** SIGKILL, then wait for the exit */
  kill(child: ChildServer): Promise<void>;
  stop(child: ChildServer): Promise<void>;
  dispose(): Promise<void>;
}

export async function childData(kind: 'sqlite' | 'postgres'): Promise<ChildData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-child-'));
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (kind === 'postgres') {
    dbName = `yd_child_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const u = new URL(process.env.TEST_DATABASE_URL!);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const running = new Set<ChildProcess>();
  const exited = (proc: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve();
      else proc.once('exit', () => resolve());
    });
  return {
    dataDir,
    databaseUrl,
    start() {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        WEB_ROOT: path.join(dataDir, 'no-web-root'),
      };
      delete env.DATABASE_URL;
      if (databaseUrl) env.DATABASE_URL = databaseUrl;
      const proc = spawn(process.execPath, ['--import', 'tsx', ENTRY], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
      running.add(proc);
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      return new Promise<ChildServer>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
        const check = () => {
          const m = /云文档已启动：http:\/\/[^:]+:(\d+)\//.exec(out);
          if (m) {
            clearTimeout(timer);
            proc.stdout!.off('data', check);
            resolve({ proc, url: `http://127.0.0.1:${m[1]}`, output: () => out });
          }
        };
        proc.stdout!.on('data', check);
        proc.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server exited (${code}):\n${out}`));
        });
      });
    },
    async kill(child) {
      child.proc.removeAllListeners('exit');
      child.proc.kill('SIGKILL');
      await exited(child.proc);
      running.delete(child.proc);
    },
    async stop(child) {
      child.proc.removeAllListeners('exit');
      child.proc.kill('SIGTERM');
      await exited(child.proc);
      running.delete(child.proc);
    },
    async dispose() {
      for (const p of running) {
        p.kill('SIGKILL');
        await exited(p);
      }
      if (dbName) {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One /api call over HTTP: the envelope. */
export async function api(base: string, method: string, url: string, o: { token?: string; body?: unknown; raw?: { payload: Buffer; contentType: string } } = {}) {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: string | Uint8Array | undefined;
  if (o.raw) {
    headers['content-type'] = o.raw.contentType;
    body = o.raw.payload;
  } else if (o.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.body);
  }
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text as any };
  }
}
