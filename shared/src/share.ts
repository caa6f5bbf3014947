// What the share dialog, the share lists and the share page of 云文档 say about a share.
import dayjs from 'dayjs';
import type { ShareLevel, ShareRecord, ShareStatus } from './api/types';
import { PAYLOAD_DATE_FORMAT } from './constants';

export const SHARE_LEVELS: Array<{ value: ShareLevel; label: string; right: string }> = [
  { value: 1, label: '仅预览', right: 'view' },
  { value: 2, label: '预览和下载', right: 'download' },
  { value: 3, label: '上传和编辑', right: 'upload' },
];

export const shareLevelName = (level: number) => SHARE_LEVELS.find((l) => l.value === level)?.label ?? '';

export const SHARE_STATUS_NAMES: Record<ShareStatus, string> = { 1: '有效', 2: '已失效', 3: '已取消' };

/** The 有效期 presets of the share dialog: days, or null for 永久有效. */
export const SHARE_EXPIRY_PRESETS: Array<{ days: number | null; label: string }> = [
  { days: 1, label: '1 天' },
  { days: 7, label: '7 天' },
  { days: 30, label: '30 天' },
  { days: null, label: '永久有效' },
];

/** `expireAt` of a preset counted from `now`. */
export function expiryAfter(days: number | null, now: Date = new Date()): string | null {
  return days === null ? null : dayjs(now).add(days, 'day').format(PAYLOAD_DATE_FORMAT);
}

/** The full address of an external share's page; with `key`, the page fills the 提取码 in by itself. */
export function shareLinkUrl(url: string, key?: string | null, origin: string = typeof location === 'undefined' ? '' : location.origin): string {
  const full = `${origin}${url}`;
  return key ? `${full}?key=${encodeURIComponent(key)}` : full;
}

/** What 复制链接 puts on the clipboard for an external share. */
export function shareLinkText(url: string, key?: string | null, origin?: string): string {
  const link = shareLinkUrl(url, null, origin);
  return key ? `链接：${link} 提取码：${key}` : `链接：${link}`;
}

/** The names of a share's items as one line (`甲.txt 等 3 个文件`). */
export function shareTitle(record: Pick<ShareRecord, 'items'>): string {
  if (!record.items.length) return '（文件已删除）';
  const first = record.items[0].name;
  return record.items.length === 1 ? first : `${first} 等 ${record.items.length} 个文件`;
}

/** Copies text; resolves false where the clipboard is not available. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through to the selection copy */
  }
  if (typeof document === 'undefined') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let done = false;
  try {
    done = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    done = false;
  }
  area.remove();
  return done;
}

/** A typed 提取码: 4 to 16 letters or digits. */
export const SHARE_KEY_PATTERN = /^[A-Za-z0-9]{4,16}$/;
export const SHARE_KEY_INVALID = '提取码应为 4 至 16 位字母或数字';
