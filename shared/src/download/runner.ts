// How 云文档 downloads (spec section 4 "Download"): one file goes straight to the browser's own
// download manager through a hidden frame (so it shows there and can resume); folders and
// several items are first compressed by the server, whose task is polled until the zip is
// ready, then downloaded the same way. One compression at a time. Mobile Apple devices get no
// download (spec section 8): they are told so instead.
import { DOWNLOAD_FRAME_TTL_MS, DOWNLOAD_POLL_INTERVAL_MS, Messages } from '../constants';
import { isApiError } from '../http/errors';
import { notify } from '../notify';
import { apiUrl, downloadApi, type DownloadTask, type DownloadTaskStatus } from './api';

/** The attribute that marks the hidden download frames (for tests and clean-up). */
export const DOWNLOAD_FRAME_ATTR = 'data-download-frame';

/** What a frame shows when the server answered with an error instead of the bytes. */
function frameError(frame: HTMLIFrameElement): string | null {
  let text = '';
  try {
    text = frame.contentDocument?.body?.textContent?.trim() ?? '';
  } catch {
    return null; // another origin: nothing can be read, nothing is shown
  }
  if (!text) return null;
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (body && typeof body.message === 'string' && body.message.trim()) return body.message;
  } catch {
    /* not JSON: an error page */
  }
  return Messages.downloadFailed;
}

interface DeviceInfo {
  userAgent?: string;
  platform?: string;
  maxTouchPoints?: number;
}

/** An iPhone, iPad or iPod (an iPad may call itself a Mac: a Mac has no touch screen). */
export function isAppleMobile(device: DeviceInfo | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  if (!device) return false;
  if (/iPhone|iPad|iPod/i.test(device.userAgent ?? '')) return true;
  return device.platform === 'MacIntel' && (device.maxTouchPoints ?? 0) > 1;
}

/** False, with the message shown, on a device that gets no download. */
function deviceCanDownload(): boolean {
  if (!isAppleMobile()) return true;
  notify.warning(Messages.appleMobileNoDownload);
  return false;
}

/**
 * Lets the browser download `url` in a hidden frame, removed after 300 s. A download never
 * replaces the frame's empty document; an error reply does (the server's message is shown).
 */
export function downloadByFrame(url: string): HTMLIFrameElement | null {
  if (!deviceCanDownload()) return null;
  const frame = document.createElement('iframe');
  frame.setAttribute(DOWNLOAD_FRAME_ATTR, '');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.display = 'none';
  frame.src = url;
  const timer = setTimeout(() => frame.remove(), DOWNLOAD_FRAME_TTL_MS);
  frame.addEventListener('load', () => {
    const message = frameError(frame);
    if (message === null) return;
    notify.error(message);
    clearTimeout(timer);
    frame.remove();
  });
  document.body.appendChild(frame);
  return frame;
}

/** One file (or one of its versions) straight from the server. */
export function downloadFile(fileId: string, options: { versionId?: string | null; shareId?: string | null } = {}): void {
  downloadByFrame(downloadApi.fileUrl(fileId, options));
}

export type CompressionOutcome = 'done' | 'busy' | 'failed' | 'cancelled';

export interface CompressionOptions {
  /** the call that starts the task (default: the signed-in user's DownloadTask) */
  createTask?: (ids: string[]) => Promise<DownloadTask>;
  /** the status call (default: DownloadTasks/{taskId}/Status) */
  getStatus?: (taskId: string) => Promise<DownloadTaskStatus>;
  /** 0 once the compression is accepted (not while another runs), then each percent polled, 100 at the end */
  onProgress?: (percent: number) => void;
  /** between two status calls (default 3 s, spec section 9) */
  intervalMs?: number;
  /** stops waiting for the zip */
  signal?: AbortSignal;
}

let running = false;

/** Whether a compression is under way (a second one is refused meanwhile). */
export const isCompressing = () => running;

const clampPercent = (p: unknown) => {
  const n = typeof p === 'number' && Number.isFinite(p) ? p : 0;
  return Math.max(0, Math.min(100, Math.round(n)));
};

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) {
      done();
      return;
    }
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      done();
    }
    signal?.addEventListener('abort', finish);
  });
}

/**
 * Compresses the items on the server and downloads the zip once it is ready. While one runs,
 * another is refused with 该文件正在压缩中，请稍后再试. The http client has already shown a
 * failed call's message (404, 40301, 42901...); a failed build shows the task's error; other
 * failures show 文件下载失败.
 */
export async function compressAndDownload(ids: string[], options: CompressionOptions = {}): Promise<CompressionOutcome> {
  if (running) {
    notify.warning(Messages.compressing);
    return 'busy';
  }
  if (!deviceCanDownload()) return 'failed';
  const { signal, onProgress } = options;
  const createTask = options.createTask ?? ((list: string[]) => downloadApi.createTask(list));
  const getStatus = options.getStatus ?? ((taskId: string) => downloadApi.taskStatus(taskId));
  const interval = options.intervalMs ?? DOWNLOAD_POLL_INTERVAL_MS;
  running = true;
  try {
    onProgress?.(0);
    const { taskId } = await createTask(ids);
    for (;;) {
      if (signal?.aborted) return 'cancelled';
      const status = await getStatus(taskId);
      if (signal?.aborted) return 'cancelled';
      if (status.state === 'failed' || status.error) {
        notify.error(status.error || Messages.downloadFailed);
        return 'failed';
      }
      if (status.downloadUrl) {
        onProgress?.(100);
        downloadByFrame(apiUrl(status.downloadUrl));
        return 'done';
      }
      onProgress?.(Math.min(clampPercent(status.percent), 99));
      await wait(interval, signal);
    }
  } catch (e) {
    if (!isApiError(e)) notify.error(Messages.downloadFailed);
    return 'failed';
  } finally {
    running = false;
  }
}

/** Only for tests: forget a compression left running by an earlier case. */
export function resetDownloadState(): void {
  running = false;
}
