// LibreOffice, headless, turning one office document into a PDF for 云文档's preview
// (docs/integration.md, "Preview"). Each run has a profile of its own (soffice locks its
// profile: two runs on one fail silently), no restore, no first-start wizard, and its own
// process group, which is killed when the run takes longer than the timeout. Macros are not
// run (LibreOffice's default security level, and --convert-to never starts them); the
// environment sends any network fetch of linked content to a closed port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export class ConversionError extends Error {}

/** A port nothing listens on: linked resources in a document are not fetched. */
const DEAD_PROXY = 'http://127.0.0.1:9';

export class OfficeConverter {
  constructor(
    /** soffice; null when LibreOffice is not installed */
    readonly binary: string | null,
    private readonly workDir: string,
    private readonly timeoutMs: number,
  ) {}

  get available(): boolean {
    return this.binary !== null;
  }

  /**
   * Converts `source` (read as a file of type `extension`) and moves the PDF to `target`.
   * Throws ConversionError (its message in Chinese) when LibreOffice gives no PDF.
   */
  async toPdf(source: string, extension: string, target: string): Promise<void> {
    if (!this.binary) throw new ConversionError('服务器未安装 LibreOffice，无法转换 Office 文档');
    await fs.promises.mkdir(this.workDir, { recursive: true });
    const dir = await fs.promises.mkdtemp(path.join(this.workDir, 'lo-'));
    try {
      const input = path.join(dir, `document.${extension.replace(/[^a-z0-9]/gi, '') || 'bin'}`);
      await fs.promises.copyFile(source, input);
      const out = path.join(dir, 'out');
      const args = [
        '--headless', '--invisible', '--norestore', '--nolockcheck', '--nodefault', '--nologo', '--nofirststartwizard',
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
        '--convert-to', 'pdf', '--outdir', out, input,
      ];
      const { code, stderr, timedOut } = await this.run(args, dir);
      if (timedOut) throw new ConversionError(`文档转换超时（超过 ${Math.round(this.timeoutMs / 1000)} 秒）`);
      const pdf = path.join(out, 'document.pdf');
      const stat = await fs.promises.stat(pdf).catch(() => null);
      if (!stat || stat.size === 0) {
        const reason = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/javaldx|java may not/i.test(l)).pop();
        throw new ConversionError(`文档转换失败，文件可能已损坏或格式不受支持${code ? `（退出码 ${code}）` : ''}${reason ? `：${reason.slice(0, 200)}` : ''}`);
      }
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(pdf, target).catch(async () => {
        await fs.promises.copyFile(pdf, target);
      });
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  private run(args: string[], home: string): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.binary!, args, {
        cwd: home,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          LANG: 'zh_CN.UTF-8',
          SAL_USE_VCLPLUGIN: 'svp',
          http_proxy: DEAD_PROXY, https_proxy: DEAD_PROXY, HTTP_PROXY: DEAD_PROXY, HTTPS_PROXY: DEAD_PROXY, no_proxy: '',
        },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        if (stderr.length < 8192) stderr += chunk.toString('utf8');
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, this.timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new ConversionError(`无法启动 LibreOffice：${err.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        // anything the run left behind in its group goes too
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* the group is gone */
        }
        resolve({ code, stderr, timedOut });
      });
    });
  }
}
