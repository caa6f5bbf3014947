// The notifier the shell installs at start-up: it loads antd only when a notice is raised,
// so the sign-in page stays free of antd. The signed-in layout replaces it with the
// context-aware one of AppProviders while mounted.
import { setNotifier, type Notifier } from '@app/shared';

type Method = keyof Notifier;

const call =
  <M extends Method>(method: M) =>
  (...args: Parameters<Notifier[M]>) => {
    void import('./antdStatic').then(({ staticNotifier }) => {
      (staticNotifier[method] as (...a: Parameters<Notifier[M]>) => void)(...args);
    });
  };

export const lazyNotifier: Notifier = {
  error: call('error'),
  warning: call('warning'),
  success: call('success'),
  info: call('info'),
  modalError: call('modalError'),
  confirmExpired: call('confirmExpired'),
};

export function installLazyNotifier(): void {
  setNotifier(lazyNotifier);
}
