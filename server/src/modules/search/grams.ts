// Tokens of 云文档's name index for keywords of one or two characters (docs/integration.md,
// "Search"). SQLite's trigram index needs three characters, so every name also carries the
// tokens of each of its characters and each adjacent pair, spelled in hex (`x6587`,
// `x6587x6863`) so that any tokenizer keeps them whole whatever the script or punctuation.
// The same spelling is made by the SQL function `name_grams` on PostgreSQL (migration
// 2026-11-24-0012): keep the two in step.

const token = (codePoint: number) => `x${codePoint.toString(16)}`;

/** The space-separated distinct 1- and 2-character tokens of a (normalised) name. */
export function nameGrams(nameKey: string): string {
  const points = [...nameKey].map((c) => c.codePointAt(0)!);
  const out = new Set<string>();
  for (let i = 0; i < points.length; i++) {
    out.add(token(points[i]));
    if (i + 1 < points.length) out.add(token(points[i]) + token(points[i + 1]));
  }
  return [...out].join(' ');
}

/** The one token that finds a keyword of one or two characters; null for longer ones. */
export function gramToken(keywordKey: string): string | null {
  const points = [...keywordKey].map((c) => c.codePointAt(0)!);
  if (points.length < 1 || points.length > 2) return null;
  return points.map(token).join('');
}

/** The PostgreSQL twin of nameGrams (immutable, so that an expression index can use it). */
export const PG_NAME_GRAMS = `
create or replace function name_grams(t text) returns text language sql immutable parallel safe as $$
  select coalesce(string_agg(g, ' '), '') from (
    select distinct g from (
      select 'x' || to_hex(ascii(substr(t, i, 1))) as g from generate_series(1, char_length(t)) as i
      union all
      select 'x' || to_hex(ascii(substr(t, i, 1))) || 'x' || to_hex(ascii(substr(t, i + 1, 1)))
        from generate_series(1, char_length(t) - 1) as i
    ) s
  ) d
$$`;

/** Whitespace (a trimmed keyword of one or two characters never holds any). */
const SPACES = new Set([0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
function isSpace(point: number): boolean {
  return point <= 0x20 || (point >= 0x2000 && point <= 0x200b) || SPACES.has(point);
}

/**
 * The 1- and 2-character tokens of a document's text (lower case): every character but
 * whitespace and every adjacent pair of them, in any script, so that a keyword of one or two
 * characters (中, 合同, a, v2, AI) is one token of the index. A document's tokens are its
 * distinct characters and pairs, however often each occurs.
 */
export function contentGrams(text: string): string {
  const out = new Set<string>();
  let prev: string | null = null;
  for (const c of text.toLowerCase()) {
    const point = c.codePointAt(0)!;
    if (isSpace(point)) {
      prev = null;
      continue;
    }
    const t = token(point);
    out.add(t);
    if (prev !== null) out.add(prev + t);
    prev = t;
  }
  return [...out].join(' ');
}
