// Which remotes the shell registers (spec: mode and feature policy), and loading them.
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { FeaturePolicy, RemoteEntry, RemoteMeta, RemoteName, RuntimeConfig } from '@app/shared';
import { adaptMeta, checkContract, RemoteContractError } from './contract';
import { RemoteLoadError } from './RemoteLoadError';

export interface RemoteSelection {
  simple: boolean;
  /** null before sign-in: then only what public pages need */
  policy: FeaturePolicy | null;
}

/**
 * Simple mode keeps only ferry. Full mode drops ferry (its routes exist only in simple
 * mode), workflow when the policy turns workflow off and swapspace when ferrySpaces is off.
 * Before sign-in only what the public pages need: the share remote (the /s/ page) and the
 * files remote (the preview page, which an external share's visitor opens without a session).
 * Registering loads nothing: a remote is fetched when a page first shows it.
 */
export function selectRemotes(config: Pick<RuntimeConfig, 'remotes'>, { simple, policy }: RemoteSelection): RemoteEntry[] {
  return config.remotes.filter((r) => {
    if (simple) return r.name === 'ferry';
    if (r.name === 'ferry') return false;
    if (r.name === 'share' || r.name === 'files') return true;
    if (!policy) return false;
    if (r.name === 'workflow') return policy.workflow;
    if (r.name === 'swapspace') return policy.ferrySpaces;
    return true;
  });
}

const registered = new Map<RemoteName, string>();

/** Registers the remotes not registered yet; returns the names newly registered. */
export function registerSelectedRemotes(entries: RemoteEntry[]): RemoteName[] {
  const fresh = entries.filter((r) => registered.get(r.name) !== r.entry);
  if (fresh.length === 0) return [];
  registerRemotes(
    fresh.map((r) => ({ name: r.name, entry: r.entry })),
    { force: fresh.some((r) => registered.has(r.name)) },
  );
  for (const r of fresh) registered.set(r.name, r.entry);
  return fresh.map((r) => r.name);
}

export function isRemoteRegistered(name: RemoteName): boolean {
  return registered.has(name);
}

/** Only for tests. */
export function resetRegisteredRemotes(): void {
  registered.clear();
}

export const remoteNameOf = (id: string) => id.split('/')[0] as RemoteName;

/** Loads an exposed module and checks that its default export has the expected kind. */
export async function loadRemoteDefault<T>(id: string, kind: 'component' | 'object'): Promise<T> {
  let mod: { default?: unknown } | null;
  try {
    mod = await loadRemote<{ default?: unknown }>(id);
  } catch (e) {
    if (e instanceof RemoteLoadError) throw e;
    throw new RemoteLoadError(id, e instanceof Error ? e.message : undefined);
  }
  const value = mod?.default;
  const ok =
    kind === 'component'
      ? typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)
      : typeof value === 'object' && value !== null;
  if (!ok) throw new RemoteLoadError(id, '模块内容无效');
  return value as T;
}

const metaCache = new Map<RemoteName, Promise<RemoteMeta>>();

/**
 * A remote's `./meta` (cached; a failure is forgotten so that it can be tried again), checked
 * against the shell ↔ remote contract: a remote whose contract version the shell cannot run
 * fails with RemoteContractError; one it can run comes back adapted (./contract.ts).
 */
export function loadRemoteMeta(name: RemoteName): Promise<RemoteMeta> {
  let p = metaCache.get(name);
  if (!p) {
    p = loadRemoteDefault<RemoteMeta>(`${name}/meta`, 'object').then((meta) => {
      // the contract first: a remote of another contract may shape its meta differently
      const check = checkContract(meta);
      if (!check.ok) throw new RemoteContractError(name, check);
      if (!Array.isArray(meta.menu)) throw new RemoteLoadError(`${name}/meta`, '菜单无效');
      return adaptMeta(meta, check.version);
    });
    p.catch(() => metaCache.delete(name));
    metaCache.set(name, p);
  }
  return p;
}

/**
 * Loads an exposed component of a remote once the remote's contract is known to be one the
 * shell runs (its './meta', usually already loaded by the menus, says which).
 */
export async function loadRemoteComponent<T>(id: string): Promise<T> {
  await loadRemoteMeta(remoteNameOf(id));
  return loadRemoteDefault<T>(id, 'component');
}

export function resetRemoteMetaCache(): void {
  metaCache.clear();
}
