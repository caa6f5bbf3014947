// File and folder names in 云文档: what a name may not contain, so that it shows as what it is
// and can be saved on every system people download to (Windows, macOS, Linux) and by every
// client that syncs or mounts the space. One set of rules for every door a name comes in by:
// create, rename, upload (file names and the folders of a dropped folder), copy's rename; zip
// entries of names stored before these rules map the same rules instead of refusing.

/** Characters Windows refuses in a name (besides / and \). */
const WINDOWS_FORBIDDEN = /[:*?"<>|]/;
/** Control characters (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Invisible characters that change how a name reads: bidirectional controls (U+202E shows
 * `invoice\u202Efdp.exe` as "invoiceexe.pdf"), marks and isolates, zero-width characters and
 * the byte-order mark.
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
/** Device names Windows reserves, with or without an extension (CON, NUL.txt, com1.tar.gz). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\s*\..*)?$/i;

export const NAME_MESSAGES = {
  empty: '名称不能为空',
  tooLong: (max: number) => `名称不能超过 ${max} 个字符`,
  slash: '名称不能包含 /、\\ 或控制字符',
  windows: '名称不能包含以下字符：: * ? " < > |',
  control: '名称不能包含 /、\\ 或控制字符',
  invisible: '名称不能包含改变文字方向或不可见的字符（如 U+202E）',
  dots: '名称不能是 . 或 ..',
  trailingDot: '名称不能以 . 结尾',
  reserved: (name: string) => `“${name}”是 Windows 的保留名称，不能用作文件或文件夹名称`,
} as const;

/** Why a name (already NFC-normalised and trimmed) cannot be used, or null when it can. */
export function nameProblem(name: string, maxLength: number): string | null {
  if (!name) return NAME_MESSAGES.empty;
  if ([...name].length > maxLength) return NAME_MESSAGES.tooLong(maxLength);
  if (/[/\\]/.test(name)) return NAME_MESSAGES.slash;
  if (CONTROL.test(name)) return NAME_MESSAGES.control;
  if (INVISIBLE.test(name)) return NAME_MESSAGES.invisible;
  if (WINDOWS_FORBIDDEN.test(name)) return NAME_MESSAGES.windows;
  if (name === '.' || name === '..') return NAME_MESSAGES.dots;
  if (name.endsWith('.')) return NAME_MESSAGES.trailingDot;
  const base = name.split('.')[0];
  if (WINDOWS_RESERVED.test(name)) return NAME_MESSAGES.reserved(base.trim());
  return null;
}

/**
 * A name stored before these rules, made safe for an archive entry: forbidden and invisible
 * characters dropped or replaced by `_`, trailing dots and spaces removed, a reserved device
 * name prefixed with `_`.
 */
export function portableName(raw: string): string {
  let name = raw
    .normalize('NFC')
    .replace(new RegExp(CONTROL.source, 'g'), '')
    .replace(new RegExp(INVISIBLE.source, 'g'), '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .trim();
  // `.` and `..` keep their length as `_` and `__`; other trailing dots and spaces go
  name = /^\.+$/.test(name) ? name.replace(/\./g, '_') : name.replace(/[. ]+$/, '');
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  return name || '未命名';
}
