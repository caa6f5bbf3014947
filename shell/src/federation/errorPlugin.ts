// Module Federation runtime plugin: when a remote cannot be loaded, report it and fail with
// one clean, Chinese error that the shell's error boundary shows (模块加载失败 + 重试).
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { reportRemoteError } from './events';
import { RemoteLoadError } from './RemoteLoadError';

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error ?? '');
  if (/RUNTIME-003|manifest/i.test(text)) return '无法获取模块清单';
  if (/RUNTIME-008|ScriptExternalLoadError|Loading script failed|remoteEntry/i.test(text)) return '无法加载模块入口';
  if (/RUNTIME-004/i.test(text)) return '模块未注册';
  if (/fetch/i.test(text)) return '网络请求失败';
  return '模块内容无效';
}

interface ErrorArgs {
  id: string;
  error: unknown;
  lifecycle: string;
}

export function handleRemoteError({ id, error, lifecycle }: ErrorArgs): undefined {
  const message = error instanceof Error ? error.message : String(error);
  reportRemoteError({ id, lifecycle, message });
  // Earlier lifecycles let the runtime raise its own error, which ends here as 'onLoad'.
  if (lifecycle === 'onLoad' || lifecycle === 'beforeRequest') {
    if (error instanceof RemoteLoadError) throw error;
    throw new RemoteLoadError(id, reasonOf(error));
  }
  return undefined;
}

export default function errorPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'yunwendang-error-plugin',
    errorLoadRemote(args) {
      return handleRemoteError(args as ErrorArgs);
    },
  };
}
