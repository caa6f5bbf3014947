// Antivirus for 云文档's ferry: ClamAV, through clamd's socket (CLAMD_SOCKET, the INSTREAM
// command) or by running clamscan (with CLAMAV_DB as its signature database when set). When
// neither is present the check is skipped and says ClamAV is missing; the product still works.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { which } from '../../lib/executables';

const run = promisify(execFile);

export interface ScanResult {
  /** clean, infected, or error (the scan could not run: counts as not passed) */
  verdict: 'clean' | 'infected' | 'error';
  /** the signature's name when infected; the reason on error */
  detail: string;
}

export interface Scanner {
  /** e.g. 'ClamAV 1.0.7 (clamscan)'; '' when unavailable */
  engine(): Promise<string>;
  /** why the engine is unavailable, in Chinese ('' when it is available) */
  missing(): Promise<string>;
  scan(file: string): Promise<ScanResult>;
}

/** Where Debian's clamav keeps the signature databases freshclam downloads. */
const SYSTEM_DATABASE = '/var/lib/clamav';
const SIGNATURE_FILE = /\.(cvd|cld|cud|hdb|hsb|ndb|ldb|mdb|msb|cdb|yar|yara)$/i;

function hasSignatures(location: string): boolean {
  try {
    const stat = fs.statSync(location);
    if (stat.isFile()) return true;
    return fs.readdirSync(location).some((n) => SIGNATURE_FILE.test(n));
  } catch {
    return false;
  }
}

/** clamscan: exit 0 clean, 1 found (the line says `file: Name FOUND`), 2 error. */
export class ClamscanScanner implements Scanner {
  private version: Promise<string> | null = null;

  constructor(
    private readonly binary: string | null = which('clamscan'),
    private readonly database: string | null = null,
  ) {}

  async missing(): Promise<string> {
    if (!this.binary) return '未安装 ClamAV（Debian 软件包 clamav）';
    if (!hasSignatures(this.database ?? SYSTEM_DATABASE)) return `未找到 ClamAV 病毒库（${this.database ?? SYSTEM_DATABASE}）：请运行 freshclam 或设置 CLAMAV_DB`;
    return (await this.version_()) ? '' : 'ClamAV 无法运行';
  }

  async engine(): Promise<string> {
    return (await this.missing()) ? '' : this.version_();
  }

  private version_(): Promise<string> {
    if (!this.binary) return Promise.resolve('');
    this.version ??= run(this.binary, ['--version'], { timeout: 30000 })
      .then(({ stdout }) => `${stdout.trim().split('/')[0]} (clamscan)`)
      .catch(() => '');
    return this.version;
  }

  async scan(file: string): Promise<ScanResult> {
    if (!this.binary) return { verdict: 'error', detail: '未安装 ClamAV' };
    const args = ['--no-summary', '--infected', '--stdout'];
    if (this.database) args.push('-d', this.database);
    args.push('--', file);
    try {
      await run(this.binary, args, { timeout: 10 * 60 * 1000, maxBuffer: 1024 * 1024 });
      return { verdict: 'clean', detail: '' };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      if (e.code === 1) {
        const line = (e.stdout ?? '').split('\n').find((l) => l.trim().endsWith('FOUND')) ?? '';
        return { verdict: 'infected', detail: line.replace(/^.*?:\s*/, '').replace(/\s*FOUND\s*$/, '') || '未知病毒' };
      }
      return { verdict: 'error', detail: (e.stderr ?? '').trim().split('\n').pop() || 'ClamAV 无法运行' };
    }
  }
}

/** clamd over its Unix socket: INSTREAM sends the bytes in chunks, the reply says OK or FOUND. */
export class ClamdScanner implements Scanner {
  constructor(private readonly socket: string) {}

  private talk(command: string, body?: fs.ReadStream): Promise<string> {
    return new Promise((resolve, reject) => {
      const conn = net.createConnection(this.socket);
      const chunks: Buffer[] = [];
      conn.setTimeout(10 * 60 * 1000, () => conn.destroy(new Error('clamd 超时')));
      conn.on('data', (c) => chunks.push(c));
      conn.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').replace(/\0/g, '').trim()));
      conn.on('error', reject);
      conn.on('connect', () => {
        conn.write(`z${command}\0`);
        if (!body) return;
        body.on('data', (chunk) => {
          const buf = chunk as Buffer;
          const len = Buffer.alloc(4);
          len.writeUInt32BE(buf.length);
          conn.write(len);
          conn.write(buf);
        });
        body.on('error', (err) => conn.destroy(err));
        body.on('end', () => conn.write(Buffer.alloc(4)));
      });
    });
  }

  async engine(): Promise<string> {
    try {
      return `${(await this.talk('VERSION')).split('/')[0]} (clamd)`;
    } catch {
      return '';
    }
  }

  async missing(): Promise<string> {
    return (await this.engine()) ? '' : `无法连接 clamd（${this.socket}）`;
  }

  async scan(file: string): Promise<ScanResult> {
    try {
      const reply = await this.talk('INSTREAM', fs.createReadStream(file, { highWaterMark: 64 * 1024 }));
      if (reply.endsWith('OK')) return { verdict: 'clean', detail: '' };
      if (reply.endsWith('FOUND')) return { verdict: 'infected', detail: reply.replace(/^stream:\s*/, '').replace(/\s*FOUND$/, '') };
      return { verdict: 'error', detail: reply || 'clamd 无应答' };
    } catch (err) {
      return { verdict: 'error', detail: `clamd 无法连接：${(err as Error).message}` };
    }
  }
}

export function createScanner(options: { clamdSocket: string | null; clamavDb: string | null }): Scanner {
  if (options.clamdSocket) return new ClamdScanner(options.clamdSocket);
  return new ClamscanScanner(which('clamscan'), options.clamavDb);
}
