// Version-update check (spec section 4): compare /json/config.json's version with the one
// the browser stored; when they differ, a modal (width 430, one button, no close) asks to
// upgrade. Re-checked 3 s after a dynamically loaded module failed to fetch.
import { localStore, Messages, StorageKey, UPDATE_MODAL_WIDTH, UPDATE_RECHECK_DELAY_MS, VERSION_CONFIG_URL } from '@app/shared';

export interface VersionRecord {
  version: string;
  isRefresh: boolean;
}

export interface UpdatePrompt {
  (options: { onConfirm: () => void; onDismiss: () => void }): void;
}

export interface VersionCheckDeps {
  fetchImpl?: typeof fetch;
  reload?: () => void;
  prompt?: UpdatePrompt;
}

/** The antd modal (loaded on demand). */
export const antdUpdatePrompt: UpdatePrompt = ({ onConfirm, onDismiss }) => {
  void import('antd').then(({ Modal }) => {
    let confirmed = false;
    Modal.info({
      title: Messages.updateTitle,
      content: Messages.updateContent,
      okText: Messages.updateOk,
      width: UPDATE_MODAL_WIDTH,
      closable: false,
      mask: { closable: false },
      keyboard: false,
      centered: true,
      onOk: () => {
        confirmed = true;
        onConfirm();
      },
      afterClose: () => {
        if (!confirmed) onDismiss();
      },
    });
  });
};

let prompting = false;
let checking = false;

export function readStoredVersion(): VersionRecord | null {
  try {
    return localStore.get<VersionRecord>(StorageKey.Version);
  } catch {
    return null;
  }
}

function storeVersion(version: string, isRefresh: boolean): void {
  try {
    localStore.set<VersionRecord>(StorageKey.Version, { version, isRefresh }, null);
  } catch {
    /* storage errors are swallowed */
  }
}

async function fetchVersion(fetchImpl: typeof fetch): Promise<string | null> {
  try {
    const res = await fetchImpl(`${VERSION_CONFIG_URL}?timestamp=${Date.now()}`, { cache: 'no-store' });
    if (!res.ok) return null;
    const body = (await res.json()) as { VITE_GLOB_APP_VERSION?: unknown };
    return typeof body?.VITE_GLOB_APP_VERSION === 'string' && body.VITE_GLOB_APP_VERSION ? body.VITE_GLOB_APP_VERSION : null;
  } catch {
    return null;
  }
}

/** One check. Resolves to 'stored' | 'same' | 'prompted' | 'skipped'. */
export async function checkVersion(deps: VersionCheckDeps = {}): Promise<'stored' | 'same' | 'prompted' | 'skipped'> {
  if (prompting || checking) return 'skipped';
  checking = true;
  try {
    const current = await fetchVersion(deps.fetchImpl ?? fetch);
    if (!current) return 'skipped';
    const stored = readStoredVersion();
    if (!stored?.version) {
      storeVersion(current, false);
      return 'stored';
    }
    if (stored.version === current) return 'same';
    if (prompting) return 'skipped';
    prompting = true;
    const reload = deps.reload ?? (() => window.location.reload());
    (deps.prompt ?? antdUpdatePrompt)({
      onConfirm: () => {
        storeVersion(current, true);
        prompting = false;
        reload();
      },
      onDismiss: () => {
        storeVersion(stored.version, false);
        prompting = false;
      },
    });
    return 'prompted';
  } finally {
    checking = false;
  }
}

export const isDynamicImportFailure = (reason: unknown): boolean => {
  const text = reason instanceof Error ? `${reason.name} ${reason.message}` : String(reason ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Loading (CSS )?chunk [\w-]+ failed/i.test(text);
};

let recheckTimer: ReturnType<typeof setTimeout> | null = null;

/** Checks now, and again 3 s after a failed dynamic import (one re-check at a time). */
export function startVersionCheck(deps: VersionCheckDeps = {}): () => void {
  void checkVersion(deps);
  const onRejection = (event: PromiseRejectionEvent) => {
    if (!isDynamicImportFailure(event.reason) || recheckTimer) return;
    recheckTimer = setTimeout(() => {
      recheckTimer = null;
      void checkVersion(deps);
    }, UPDATE_RECHECK_DELAY_MS);
  };
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('unhandledrejection', onRejection);
    if (recheckTimer) clearTimeout(recheckTimer);
    recheckTimer = null;
  };
}

/** Only for tests. */
export function resetVersionCheck(): void {
  prompting = false;
  checking = false;
}
