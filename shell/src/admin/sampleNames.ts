// The people a plan names by example (an import or a directory sync lists only the first few).

/** Names joined with “、”, and how many there are in all when the list is cut short; `empty` when none are named. */
export function sampleNames(list: readonly string[], count: number, empty: string): string {
  if (!list.length) return empty;
  return list.join('、') + (count > list.length ? ` 等 ${count} 人` : '');
}
