// Where the 云文档 web builds live and what /runtime-config.json says.
import fs from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES, type AppConfig, type RemoteName } from '../../config';
import type { SettingsService } from '../settings/service';
import type { RuntimeConfig } from './schemas';
import { inlineScriptHashes, pageContentSecurityPolicy } from './security';

/** The most files a workflow may carry (client configuration). */
export const WORKFLOW_FILE_NUMBER = 20;

export const REMOTE_TITLES: Record<RemoteName, string> = {
  files: '文件',
  workflow: '流程',
  swapspace: '交换空间',
  ferry: '文件摆渡',
  share: '分享',
};

export function isRemoteName(name: string): name is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(name);
}

/**
 * A request path made safe to join under a build folder: decoded, without empty, `.` or
 * `..` segments, NUL or backslashes. null when the path cannot be served.
 */
export function safeRelativePath(raw: string, alreadyDecoded = false): string | null {
  let decoded = raw;
  if (!alreadyDecoded) {
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/');
  const trailingSlash = decoded.endsWith('/') && decoded.length > 1;
  const kept: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') return null;
    kept.push(s);
  }
  return kept.join('/') + (trailingSlash && kept.length ? '/' : '');
}

/** Content-hashed assets (`name.0123abcd.js`) never change; everything else is revalidated. */
export function cacheControlFor(relPath: string): string {
  const base = relPath.split('/').pop() ?? '';
  return /\.[0-9a-f]{8,}\.(?:js|css|mjs|woff2?|png|jpe?g|gif|svg|webp|ico)$/i.test(base)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';
}

export async function pathKind(file: string): Promise<'file' | 'dir' | 'missing'> {
  try {
    const st = await fs.stat(file);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'missing';
  } catch {
    return 'missing';
  }
}

export class WebService {
  readonly shellDist: string;
  /** the policy for the shell's index.html as it was when last read (its modification time and size) */
  private policy: { stamp: string; text: string };

  constructor(
    private readonly config: Pick<AppConfig, 'webRoot' | 'mode' | 'remoteUrls' | 'dingtalk'>,
    private readonly settings: SettingsService,
  ) {
    this.shellDist = path.join(config.webRoot, 'shell', 'dist');
    this.policy = { stamp: '', text: pageContentSecurityPolicy(config) };
  }

  /**
   * The Content-Security-Policy of the HTML pages: remote origins and DingTalk from the
   * configuration, and the hashes of the inline scripts of the shell's index.html, read again
   * when a build has changed that file.
   */
  async pagePolicy(): Promise<string> {
    const index = path.join(this.shellDist, 'index.html');
    let stamp = '';
    try {
      const st = await fs.stat(index);
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      /* no shell build: no inline script to allow */
    }
    if (stamp === this.policy.stamp) return this.policy.text;
    const html = stamp ? await fs.readFile(index, 'utf8').catch(() => '') : '';
    this.policy = { stamp, text: pageContentSecurityPolicy(this.config, inlineScriptHashes(html)) };
    return this.policy.text;
  }

  remoteDist(name: RemoteName): string {
    return path.join(this.config.webRoot, `remote-${name}`, 'dist');
  }

  /** GET /runtime-config.json (docs/integration.md, "Runtime configuration"). */
  async runtimeConfig(): Promise<RuntimeConfig> {
    const names: readonly RemoteName[] = this.config.mode === 'simple' ? ['ferry'] : REMOTE_NAMES;
    const branding = await this.settings.branding();
    return {
      mode: this.config.mode,
      appTitle: branding.systemName_Client || '云文档',
      apiUrl: '',
      apiUrlPrefix: '/api',
      fileUrl: '',
      workflowFileNumber: WORKFLOW_FILE_NUMBER,
      remotes: names.map((name) => ({ name, entry: this.config.remoteUrls[name] ?? `/remotes/${name}/mf-manifest.json` })),
      // the login page's 钉钉登录 button (docs/integration.md, "DingTalk")
      dingtalk: this.config.dingtalk
        ? {
            appId: this.config.dingtalk.appKey,
            authorizeUrl: `${this.config.dingtalk.loginBase}/oauth2/auth`,
            mode: this.config.dingtalk.loginMode,
            ...(this.config.dingtalk.loginMode === 'qr' ? { sdkUrl: this.config.dingtalk.qrSdkUrl } : {}),
          }
        : null,
    };
  }

  /** The shell build's json/config.json as text, or null when it is missing or not JSON. */
  async versionConfigText(): Promise<string | null> {
    try {
      const text = await fs.readFile(path.join(this.shellDist, 'json', 'config.json'), 'utf8');
      JSON.parse(text);
      return text;
    } catch {
      return null;
    }
  }
}
