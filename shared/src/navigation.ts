// The core cannot use the router directly; the shell registers its navigate function here.
export type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

const defaultNavigate: NavigateFn = (to, options) => {
  if (typeof window === 'undefined') return;
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

let navigateImpl: NavigateFn = defaultNavigate;

export function setNavigate(fn: NavigateFn | null): void {
  navigateImpl = fn ?? defaultNavigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}
