// Changes an action made to items of a loaded page (收藏, 标签) shown at once, without loading
// the page again: the selection stays, and the page's identity (which the first-screen drawing
// and the jump's highlight follow) does not change. The next load of the page drops them.
import { useCallback, useState } from 'react';
import type { Item } from '@app/shared';

type Patch = Partial<Item> | ((item: Item) => Partial<Item>);

interface Patches {
  /** the loaded page they belong to */
  source: unknown;
  byId: Map<string, ((item: Item) => Partial<Item>)[]>;
}

const NONE: Patches['byId'] = new Map();

export interface RowPatches {
  /** the rows with the changes applied (the same array when there are none) */
  apply: (rows: Item[]) => Item[];
  /** changes the items of `ids` on the page `source` was when the action started */
  patch: (ids: string[], change: Patch) => void;
}

/** `source`: the loaded page (a new load is a new object). */
export function useRowPatches(source: unknown): RowPatches {
  const [state, setState] = useState<Patches>({ source, byId: NONE });
  const byId = state.source === source ? state.byId : NONE;

  const apply = (rows: Item[]) =>
    byId.size
      ? rows.map((row) => {
          const changes = byId.get(row.id);
          return changes ? changes.reduce<Item>((item, change) => ({ ...item, ...change(item) }), row) : row;
        })
      : rows;

  const patch = useCallback(
    (ids: string[], change: Patch) => {
      const fn = typeof change === 'function' ? change : () => change;
      setState((s) => {
        const next = new Map(s.source === source ? s.byId : NONE);
        ids.forEach((id) => next.set(id, [...(next.get(id) ?? []), fn]));
        return { source, byId: next };
      });
    },
    [source],
  );

  return { apply, patch };
}
