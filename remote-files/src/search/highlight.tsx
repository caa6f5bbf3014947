// The keyword of a search marked in a result's name or snippet: the text is split around every
// case-insensitive occurrence and the hits are rendered as <mark> elements by React (the text
// is never parsed as HTML).
import { Fragment } from 'react';

export interface TextPart {
  text: string;
  hit: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` cut into the parts that match `keyword` (case-insensitive) and the parts between. */
export function splitByKeyword(text: string, keyword: string): TextPart[] {
  const k = keyword.trim();
  if (!text) return [];
  if (!k) return [{ text, hit: false }];
  // split with a capture group: the odd entries are the hits
  return text
    .split(new RegExp(`(${escapeRegExp(k)})`, 'gi'))
    .map((part, i) => ({ text: part, hit: i % 2 === 1 }))
    .filter((p) => p.text !== '');
}

const MARK_STYLE = { padding: 0, backgroundColor: '#ffe58f', color: 'inherit' } as const;

/** `text` with every occurrence of `keyword` in a <mark>. */
export function Highlighted({ text, keyword }: { text: string; keyword: string }) {
  return (
    <>
      {splitByKeyword(text, keyword).map((p, i) =>
        p.hit ? (
          <mark key={i} style={MARK_STYLE}>
            {p.text}
          </mark>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}
