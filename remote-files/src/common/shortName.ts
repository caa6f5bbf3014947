// The names of favourites categories and tags (at most TAG_NAME_MAX_LENGTH characters, unique
// for the user as the server compares them: trimmed, NFKC, lower case).
import { TAG_NAME_MAX_LENGTH } from '@app/shared';

export const nameKey = (name: string) => name.trim().normalize('NFKC').toLowerCase();

/** Characters as the user sees them (an emoji is one). */
export const nameLength = (name: string) => [...name].length;

/**
 * Why `value` cannot be the name of a `what` (分类, 标签), or null. `taken`: the names of the
 * others it must differ from.
 */
export function shortNameError(value: string, what: string, taken: string[] = []): string | null {
  const name = value.trim();
  if (!name) return `请输入${what}名称`;
  if (nameLength(name) > TAG_NAME_MAX_LENGTH) return `${what}名称不能超过 ${TAG_NAME_MAX_LENGTH} 个字符`;
  if (taken.some((t) => nameKey(t) === nameKey(name))) return `已存在同名${what}`;
  return null;
}
