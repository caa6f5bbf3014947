// Names of files and folders in 云文档: the rules every name input checks (spec section 5:
// at most 150 characters).
import { RENAME_MAX_LENGTH } from '@app/shared';

export const FILE_NAME_MESSAGES = {
  required: '请输入名称',
  tooLong: `名称不能超过 ${RENAME_MAX_LENGTH} 个字符`,
  badChars: '名称不能包含 / \\ 或控制字符',
  dots: '名称不能为 . 或 ..',
} as const;

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/;

/** Why `raw` (trimmed first) is not a valid file or folder name, or null when it is. */
export function fileNameError(raw: string): string | null {
  const name = raw.trim();
  if (!name) return FILE_NAME_MESSAGES.required;
  if (name.length > RENAME_MAX_LENGTH) return FILE_NAME_MESSAGES.tooLong;
  if (FORBIDDEN.test(name)) return FILE_NAME_MESSAGES.badChars;
  if (name === '.' || name === '..') return FILE_NAME_MESSAGES.dots;
  return null;
}

/** Splits a file name into its base and its extension ('.docx'); a leading dot is no extension. */
export function splitFileName(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: name.slice(dot) };
}
