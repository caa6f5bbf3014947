// The client branding of 云文档 (system name, logos, favicon, login background) as the
// administrator set it: fetched once per page load without a session, kept in the app store so
// that a change made in 系统管理 shows at once, and applied to the browser's title and icon.
import { useEffect } from 'react';
import { atom, useAtomValue } from 'jotai';
import { api, APP_NAME, appStore, runtimeConfigAtom, type ClientBranding } from '@app/shared';

export const brandingAtom = atom<ClientBranding | null>(null);

let loading: Promise<void> | null = null;

function setFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"][data-branding]');
  if (!href) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    link.dataset.branding = '';
    document.head.appendChild(link);
  }
  link.href = href;
}

/** Keeps the branding and applies it to the page. */
export function applyBranding(branding: ClientBranding): void {
  appStore.set(brandingAtom, branding);
  if (typeof document === 'undefined') return;
  setFavicon(branding.favroiteIcon);
  document.title = branding.systemName_Client || appStore.get(runtimeConfigAtom)?.appTitle || APP_NAME;
}

/** Fetches the branding once (again after a failure). */
export function loadBranding(): Promise<void> {
  loading ??= api
    .getBranding()
    .then(applyBranding)
    .catch(() => {
      loading = null;
    });
  return loading;
}

/** The branding, fetched on first use; null until it has arrived (or when it cannot be read). */
export function useBranding(): ClientBranding | null {
  useEffect(() => {
    void loadBranding();
  }, []);
  return useAtomValue(brandingAtom);
}

/** The product name to show: the administrator's, else the runtime configuration's, else 云文档. */
export function useProductName(): string {
  const branding = useBranding();
  const runtime = useAtomValue(runtimeConfigAtom);
  return branding?.systemName_Client || runtime?.appTitle || APP_NAME;
}

/** Tests start from nothing fetched. */
export function resetBrandingForTests(): void {
  loading = null;
  appStore.set(brandingAtom, null);
}
