// Names of tags and favourites categories: trimmed, 1 to 20 characters, no control characters;
// compared case- and width-insensitively.
import { badRequest } from '../../lib/errors';

export const LABEL_MAX_LENGTH = 20;

export function cleanLabel(raw: string, what: string): { name: string; key: string } {
  const name = String(raw ?? '').normalize('NFC').trim();
  if (!name) throw badRequest(`${what}不能为空`);
  if ([...name].length > LABEL_MAX_LENGTH) throw badRequest(`${what}不能超过 ${LABEL_MAX_LENGTH} 个字符`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) throw badRequest(`${what}不能包含控制字符`);
  return { name, key: name.normalize('NFKC').toLowerCase() };
}
