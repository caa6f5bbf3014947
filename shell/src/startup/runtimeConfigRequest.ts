// The request for /runtime-config.json, started by index.ts as soon as main.js runs, so that
// it travels (and its body is parsed) while the start-up code and React are still being
// fetched and evaluated. It imports nothing: main.js must not consume a shared module.

export const RUNTIME_CONFIG_URL = '/runtime-config.json';
/** never answered from the HTTP cache: a deployment's change shows at the next load */
export const RUNTIME_CONFIG_INIT: RequestInit = { cache: 'no-store' };

/** What loading the runtime configuration needs of a response: its status and its JSON. */
export interface ConfigResponse {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

export type ConfigFetch = (url: string, init: RequestInit) => Promise<ConfigResponse>;

/** The response, with its body already being read when it is a success. */
function readingBody(res: Response): ConfigResponse {
  if (!res.ok) return res;
  const doc = res.json();
  // a body that is not JSON is reported when it is asked for, not as an unhandled rejection now
  doc.catch(() => undefined);
  return { ok: true, status: res.status, json: () => doc };
}

let early: Promise<ConfigResponse> | null = null;

/** Starts the request. */
export function startRuntimeConfigRequest(): void {
  early = fetch(RUNTIME_CONFIG_URL, RUNTIME_CONFIG_INIT).then(readingBody);
  early.catch(() => undefined);
}

/**
 * Fetches the runtime configuration: the first time with the request started early (when
 * there is one), after that anew.
 */
export const fetchRuntimeConfig: ConfigFetch = (url, init) => {
  const pending = early;
  early = null;
  return pending ?? fetch(url, init);
};
