import { atom } from 'jotai';
import type { TabItem } from './tabsModel';

/** The open tabs of the signed-in layout. */
export const tabsAtom = atom<TabItem[]>([]);
