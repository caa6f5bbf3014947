// Names of files and folders in 云文档: the rules every name input checks (spec section 5:
// at most 150 characters), the same as the server's (server/src/lib/names.ts): nothing that
// changes how a name reads (bidirectional controls, zero-width characters), nothing Windows
// refuses (: * ? " < > |, reserved device names, a trailing dot), no slash or control character.
import { RENAME_MAX_LENGTH } from '@app/shared';

export const FILE_NAME_MESSAGES = {
  required: '请输入名称',
  tooLong: `名称不能超过 ${RENAME_MAX_LENGTH} 个字符`,
  badChars: '名称不能包含 / \\ 或控制字符',
  windowsChars: '名称不能包含以下字符：: * ? " < > |',
  invisible: '名称不能包含改变文字方向或不可见的字符（如 U+202E）',
  dots: '名称不能为 . 或 ..',
  trailingDot: '名称不能以 . 结尾',
  reserved: '这是 Windows 的保留名称（如 CON、NUL、COM1），不能用作文件或文件夹名称',
} as const;

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f-\u009f]/;
const WINDOWS_FORBIDDEN = /[:*?"<>|]/;
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\s*\..*)?$/i;

/** Why `raw` (trimmed first) is not a valid file or folder name, or null when it is. */
export function fileNameError(raw: string): string | null {
  const name = raw.normalize('NFC').trim();
  if (!name) return FILE_NAME_MESSAGES.required;
  if ([...name].length > RENAME_MAX_LENGTH) return FILE_NAME_MESSAGES.tooLong;
  if (FORBIDDEN.test(name)) return FILE_NAME_MESSAGES.badChars;
  if (INVISIBLE.test(name)) return FILE_NAME_MESSAGES.invisible;
  if (WINDOWS_FORBIDDEN.test(name)) return FILE_NAME_MESSAGES.windowsChars;
  if (name === '.' || name === '..') return FILE_NAME_MESSAGES.dots;
  if (name.endsWith('.')) return FILE_NAME_MESSAGES.trailingDot;
  if (WINDOWS_RESERVED.test(name)) return FILE_NAME_MESSAGES.reserved;
  return null;
}

/** Splits a file name into its base and its extension ('.docx'); a leading dot is no extension. */
export function splitFileName(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: name.slice(dot) };
}
