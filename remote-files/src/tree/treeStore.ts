// What 云文档's folder tree keeps between visits (spec section 3): the tree width in local
// storage, the expanded folders and the current folder of each space in session storage.
import { localStore, sessionStore } from '@app/shared';
import type { Space } from '../folder/FolderView';

export const TREE_WIDTH_KEY = 'FILE__TREE__WIDTH__';
export const TREE_MIN_WIDTH = 180;
export const TREE_MAX_WIDTH = 480;
export const TREE_DEFAULT_WIDTH = 240;

/** session storage key of a space's tree: `{ expandedKeys, current }` */
export const treeSessionKey = (space: Space) => `FILE__TREE__${space.toUpperCase()}__`;

export interface TreeSession {
  expandedKeys: string[];
  current: string | null;
}

export const clampTreeWidth = (width: number) => Math.min(TREE_MAX_WIDTH, Math.max(TREE_MIN_WIDTH, Math.round(width)));

export function readTreeWidth(): number {
  const value = localStore.get<number>(TREE_WIDTH_KEY);
  return typeof value === 'number' && Number.isFinite(value) ? clampTreeWidth(value) : TREE_DEFAULT_WIDTH;
}

export function saveTreeWidth(width: number): void {
  localStore.set(TREE_WIDTH_KEY, clampTreeWidth(width), null);
}

export function readTreeSession(space: Space): TreeSession | null {
  const value = sessionStore.get<Partial<TreeSession>>(treeSessionKey(space));
  if (!value || typeof value !== 'object') return null;
  const expandedKeys = Array.isArray(value.expandedKeys) ? value.expandedKeys.filter((k): k is string => typeof k === 'string') : [];
  return { expandedKeys, current: typeof value.current === 'string' ? value.current : null };
}

export function saveTreeSession(space: Space, state: TreeSession): void {
  sessionStore.set(treeSessionKey(space), state, null);
}

/** Ask the tree to load the child folders of `ids` again (after an action of the list). */
export interface TreeRefresh {
  seq: number;
  ids: string[];
}
