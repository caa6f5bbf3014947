import type { Item } from '@app/shared';

const split = (path: string | null | undefined) => (path ?? '').split('/').filter(Boolean);

/**
 * The route segments of a folder under its space's base path: its whole idPath, as the
 * shared jump helper builds them (/file/personal/2/<root id>/<child id>); the last segment
 * is the folder shown.
 */
export function routeSegments(item: Pick<Item, 'idPath' | 'id'>): string[] {
  const ids = split(item.idPath);
  return ids.length ? ids : [item.id];
}

export interface Crumb {
  id: string;
  name: string;
  /** route segments after the space's base path ([] for the first crumb, the root) */
  segments: string[];
}

/**
 * Breadcrumbs of a folder from its namePath and idPath. The two are aligned from the end
 * (the idPath carries the space segment in front, the namePath need not).
 */
export function crumbsOf(folder: Pick<Item, 'idPath' | 'namePath' | 'id' | 'name'>): Crumb[] {
  const ids = routeSegments(folder);
  const names = split(folder.namePath);
  const n = Math.min(ids.length, names.length);
  if (n === 0) return [{ id: folder.id, name: folder.name, segments: [] }];
  const offset = ids.length - n;
  const nameOffset = names.length - n;
  return Array.from({ length: n }, (_, i) => ({
    id: ids[offset + i],
    name: names[nameOffset + i],
    segments: i === 0 ? [] : ids.slice(0, offset + i + 1),
  }));
}
