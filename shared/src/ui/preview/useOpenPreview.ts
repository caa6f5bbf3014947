// Opening a file's preview from any list of 云文档: the server says whether its type can be
// previewed (asked once per extension for the page's life); if so the preview page opens in a
// new tab with the file and the previewable files listed next to it (for 上一个/下一个). The
// tab is opened without `noopener`, so that it gets a copy of this tab's session storage, which
// holds an external share's 提取码.
import { useCallback } from 'react';
import {
  api,
  encodePreviewData,
  Messages,
  notify,
  previewListAround,
  type PreviewTarget,
} from '@app/shared';

export const PREVIEW_OPEN_TEXTS = {
  popupBlocked: '浏览器阻止了新窗口，请允许本站弹出窗口后重试',
} as const;

/** A row of the list the file was opened from. */
export interface PreviewSibling {
  id: string;
  extension: string;
  /** folders and shortcuts are never previewed (default: a file) */
  type?: string;
}

export interface OpenPreviewTarget extends PreviewTarget {
  extension: string;
  /** the rows of the list, in order: the previewable files among them become `list` */
  siblings?: PreviewSibling[];
}

const answers = new Map<string, Promise<boolean>>();
const normalExtension = (extension: string) => extension.trim().replace(/^\./, '').toLowerCase();

/** Whether files of this extension can be previewed (GET /User/Files/Actions, cached; a failure is asked again next time). */
export function isPreviewable(extension: string): Promise<boolean> {
  const key = normalExtension(extension);
  let answer = answers.get(key);
  if (!answer) {
    answer = api.getFileActions(key, { errorMode: 'none' }).then((a) => !!a.previewable);
    answer.catch(() => answers.delete(key));
    answers.set(key, answer);
  }
  return answer;
}

/** Only for tests: forget the answers. */
export function resetPreviewableCache(): void {
  answers.clear();
}

/** The previewable files among `siblings`, in order, around `fileId`; undefined when it is not among them. */
async function neighbours(fileId: string, siblings: PreviewSibling[]): Promise<string[] | undefined> {
  const files = siblings.filter((s) => !s.type || s.type === 'file');
  const flags = await Promise.all(
    files.map((s) => (s.id === fileId ? true : isPreviewable(s.extension).catch(() => false))),
  );
  const ids = files.filter((_, i) => flags[i]).map((s) => s.id);
  return ids.includes(fileId) ? previewListAround(ids, fileId) : undefined;
}

/**
 * Opens the preview of a file in a new tab, or says why not: 该文件暂不支持预览, or
 * 预览失败，请稍后重试 when the question could not be asked (Actions needs no session: a visitor
 * of an external share asks it too).
 */
export async function openPreview(target: OpenPreviewTarget): Promise<boolean> {
  const { extension, siblings, ...rest } = target;
  let previewable: boolean;
  try {
    previewable = await isPreviewable(extension);
  } catch {
    notify.warning(Messages.previewFailed);
    return false;
  }
  if (!previewable) {
    notify.warning(Messages.cannotPreview);
    return false;
  }
  const list = rest.list ?? (siblings?.length ? await neighbours(rest.fileId, siblings) : undefined);
  const opened = window.open(`/preview/${encodePreviewData({ ...rest, list })}`, '_blank');
  if (!opened) notify.warning(PREVIEW_OPEN_TEXTS.popupBlocked);
  return !!opened;
}

/** `open(target)`: the preview of a file in a new tab (see openPreview). */
export function useOpenPreview(): (target: OpenPreviewTarget) => Promise<boolean> {
  return useCallback((target: OpenPreviewTarget) => openPreview(target), []);
}
