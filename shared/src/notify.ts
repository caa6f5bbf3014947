// The core never imports antd: it reports through this registry, which the shell fills with
// antd implementations (loaded lazily, so the sign-in page stays small).

export interface Notifier {
  error(message: string): void;
  warning(message: string): void;
  success(message: string): void;
  info(message: string): void;
  /** an error in a modal titled 错误提示 */
  modalError(message: string): void;
  /** the expired-session dialog with its single 重新登录 button */
  confirmExpired(onOk: () => void): void;
}

const fallback: Notifier = {
  error: (m) => console.error(m),
  warning: (m) => console.warn(m),
  success: (m) => console.info(m),
  info: (m) => console.info(m),
  modalError: (m) => console.error(m),
  confirmExpired: (onOk) => {
    console.warn('session expired');
    onOk();
  },
};

let current: Notifier = fallback;

/** Installs a notifier (missing methods keep the current ones); returns the previous one. */
export function setNotifier(next: Partial<Notifier> | null): Notifier {
  const previous = current;
  current = next ? { ...current, ...next } : fallback;
  return previous;
}

export function getNotifier(): Notifier {
  return current;
}

export const notify: Notifier = {
  error: (m) => current.error(m),
  warning: (m) => current.warning(m),
  success: (m) => current.success(m),
  info: (m) => current.info(m),
  modalError: (m) => current.modalError(m),
  confirmExpired: (onOk) => current.confirmExpired(onOk),
};
