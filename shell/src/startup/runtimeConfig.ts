// Loads and validates /runtime-config.json (the deploy-time choice of remotes and mode).
import { DEFAULT_API_URL_PREFIX, localStore, StorageKey, type RemoteEntry, type RemoteName, type RuntimeConfig } from '@app/shared';
import { RUNTIME_CONFIG_INIT, RUNTIME_CONFIG_URL, type ConfigFetch } from './runtimeConfigRequest';

export const REMOTE_NAMES: RemoteName[] = ['files', 'workflow', 'swapspace', 'ferry', 'share'];

export type ValidationResult = { ok: true; config: RuntimeConfig } | { ok: false; errors: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function optionalString(doc: Record<string, unknown>, key: string, fallback: string, errors: string[]): string {
  const v = doc[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') {
    errors.push(`${key} 应为字符串`);
    return fallback;
  }
  return v;
}

/** Checks the document's shape; every problem is reported in Chinese. */
export function validateRuntimeConfig(doc: unknown): ValidationResult {
  const errors: string[] = [];
  if (!isObject(doc)) return { ok: false, errors: ['运行配置应为 JSON 对象'] };

  const mode = doc.mode ?? 'full';
  if (mode !== 'full' && mode !== 'simple') errors.push('mode 只能是 "full" 或 "simple"');

  const appTitle = optionalString(doc, 'appTitle', '云文档', errors) || '云文档';
  const apiUrl = optionalString(doc, 'apiUrl', '', errors);
  const apiUrlPrefix = optionalString(doc, 'apiUrlPrefix', DEFAULT_API_URL_PREFIX, errors);
  const fileUrl = optionalString(doc, 'fileUrl', '', errors);
  if (apiUrl && !/^https?:\/\//i.test(apiUrl) && !apiUrl.startsWith('/')) errors.push('apiUrl 应为 http(s) 地址或以 / 开头');
  if (apiUrlPrefix && !apiUrlPrefix.startsWith('/')) errors.push('apiUrlPrefix 应以 / 开头');

  let workflowFileNumber = 20;
  if (doc.workflowFileNumber !== undefined) {
    if (typeof doc.workflowFileNumber !== 'number' || !Number.isInteger(doc.workflowFileNumber) || doc.workflowFileNumber < 0) {
      errors.push('workflowFileNumber 应为非负整数');
    } else workflowFileNumber = doc.workflowFileNumber;
  }

  const remotes: RemoteEntry[] = [];
  if (!Array.isArray(doc.remotes)) {
    errors.push('remotes 应为数组');
  } else {
    const seen = new Set<string>();
    doc.remotes.forEach((r, i) => {
      if (!isObject(r)) {
        errors.push(`remotes[${i}] 应为对象`);
        return;
      }
      const { name, entry } = r;
      if (typeof name !== 'string' || !REMOTE_NAMES.includes(name as RemoteName)) {
        errors.push(`remotes[${i}].name 无效：${String(name)}`);
        return;
      }
      if (seen.has(name)) {
        errors.push(`remotes 中 ${name} 重复`);
        return;
      }
      if (typeof entry !== 'string' || !(/^https?:\/\//i.test(entry) || entry.startsWith('/')) || !/\.json(\?.*)?$/i.test(entry)) {
        errors.push(`remotes[${i}].entry 应为 mf-manifest.json 的地址`);
        return;
      }
      seen.add(name);
      remotes.push({ name: name as RemoteName, entry });
    });
  }

  // 钉钉登录 (optional): an app id and the DingTalk sign-in address
  let dingtalk: RuntimeConfig['dingtalk'] = null;
  const dt = (doc as { dingtalk?: unknown }).dingtalk;
  if (dt !== undefined && dt !== null) {
    const { appId, authorizeUrl, mode, sdkUrl } = dt as { appId?: unknown; authorizeUrl?: unknown; mode?: unknown; sdkUrl?: unknown };
    if (typeof appId !== 'string' || !appId || typeof authorizeUrl !== 'string' || !/^https?:\/\//.test(authorizeUrl)) {
      errors.push('dingtalk 应包含 appId 与 http(s) 地址 authorizeUrl');
    } else if (mode !== undefined && mode !== 'redirect' && mode !== 'qr') {
      errors.push('dingtalk.mode 只能是 redirect 或 qr');
    } else if (mode === 'qr' && (typeof sdkUrl !== 'string' || !/^https?:\/\//.test(sdkUrl))) {
      errors.push('dingtalk.mode 为 qr 时应给出钉钉登录脚本的 http(s) 地址 sdkUrl');
    } else {
      dingtalk = { appId, authorizeUrl, mode: mode ?? 'redirect', ...(mode === 'qr' ? { sdkUrl: sdkUrl as string } : {}) };
    }
  }

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    config: { mode: mode as RuntimeConfig['mode'], appTitle, apiUrl, apiUrlPrefix, fileUrl, workflowFileNumber, remotes, dingtalk },
  };
}

/** Fetches the document (never from cache) and validates it; caches a valid one. */
export async function loadRuntimeConfig(fetchImpl: ConfigFetch = fetch): Promise<ValidationResult> {
  let doc: unknown;
  try {
    const res = await fetchImpl(RUNTIME_CONFIG_URL, RUNTIME_CONFIG_INIT);
    if (!res.ok) return { ok: false, errors: [`无法读取运行配置（HTTP ${res.status}）`] };
    doc = await res.json();
  } catch {
    return { ok: false, errors: ['无法读取运行配置，请检查网络或服务器'] };
  }
  const result = validateRuntimeConfig(doc);
  if (result.ok) localStore.set(StorageKey.ClientConfig, result.config);
  return result;
}

/** True once a client configuration has been cached (the loading screen then skips ahead). */
export function hasCachedClientConfig(): boolean {
  return localStore.get(StorageKey.ClientConfig) !== null;
}
