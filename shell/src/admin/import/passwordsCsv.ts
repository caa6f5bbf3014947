// The initial passwords of a 批量导入 as a CSV file that Excel opens in Chinese: UTF-8 with a
// byte order mark, CRLF line ends, fields quoted when they hold a comma, quote or line break.
import type { ImportResult } from '@app/shared';

export type PasswordRow = ImportResult['passwords'][number];

export const PASSWORDS_CSV_HEADER = ['用户名', '昵称', '初始密码'] as const;
export const PASSWORDS_CSV_NAME = '初始密码.csv';

const BOM = '\uFEFF';

/** One field: quoted (quotes doubled) only when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The whole file, byte order mark included. */
export function passwordsCsv(rows: readonly PasswordRow[]): string {
  const lines = [PASSWORDS_CSV_HEADER, ...rows.map((r) => [r.userName, r.nickName, r.initialPassword])];
  return BOM + lines.map((fields) => fields.map((f) => csvField(f ?? '')).join(',')).join('\r\n') + '\r\n';
}
