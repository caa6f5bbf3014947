// Simple mode and the remotes to register, from the runtime configuration, the home and the
// feature policy. Kept out of startup.ts: the sign-in page loads that one and needs neither.
import { appStore, featurePolicyAtom, homeAtom, runtimeConfigAtom, simpleModeAtom } from '@app/shared';
import { registerSelectedRemotes, selectRemotes } from '../federation/remotes';
import { isSimpleMode } from './startup';

/** Applies simple mode and registers the remotes that mode and feature policy allow. */
export function applyModeAndRemotes(): void {
  const config = appStore.get(runtimeConfigAtom);
  if (!config) return;
  const simple = isSimpleMode(config, appStore.get(homeAtom));
  appStore.set(simpleModeAtom, simple);
  registerSelectedRemotes(selectRemotes(config, { simple, policy: appStore.get(featurePolicyAtom) }));
}
