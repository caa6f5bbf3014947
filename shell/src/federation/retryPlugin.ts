// Module Federation runtime plugin: retries a remote's manifest (and any other fetch the
// runtime makes) when the network fails or the server answers 5xx/404 for a moment.
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

export interface RetryOptions {
  retries?: number;
  delayMs?: number;
  fetchImpl?: typeof fetch;
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function fetchWithRetry(url: string, init: RequestInit | undefined, options: RetryOptions = {}): Promise<Response> {
  const { retries = 2, delayMs = 400 } = options;
  const doFetch = options.fetchImpl ?? fetch;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    if (attempt > 0) await wait(delayMs * attempt);
    try {
      // a manifest must never come from a stale cache after a failure
      const res = await doFetch(url, { ...init, cache: attempt > 0 ? 'no-store' : init?.cache });
      if (res.ok || attempt === retries || (res.status < 500 && res.status !== 404 && res.status !== 408)) return res;
      lastError = new Error(`HTTP ${res.status}`);
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

export function createRetryPlugin(options: RetryOptions = {}): ModuleFederationRuntimePlugin {
  return {
    name: 'yunwendang-retry-plugin',
    fetch(url: string, init: RequestInit) {
      return fetchWithRetry(url, init, options);
    },
  };
}

export default function retryPlugin(): ModuleFederationRuntimePlugin {
  return createRetryPlugin();
}
