// Open tabs of the 云文档 layout: pure functions, so every rule is easy to test.
// Fixed ('affix') tabs are never closed.

export interface TabItem {
  /** the menu path the tab stands for */
  key: string;
  /** the full location last shown in it (path + search) */
  path: string;
  title: string;
  affix?: boolean;
}

export function openTab(tabs: TabItem[], tab: TabItem): TabItem[] {
  const i = tabs.findIndex((t) => t.key === tab.key);
  if (i === -1) return [...tabs, tab];
  const current = tabs[i];
  if (current.path === tab.path && current.title === tab.title && !!current.affix === !!(tab.affix || current.affix)) return tabs;
  const next = tabs.slice();
  next[i] = { ...current, path: tab.path, title: tab.title, affix: current.affix || tab.affix };
  return next;
}

export function closeTab(tabs: TabItem[], key: string): TabItem[] {
  return tabs.filter((t) => t.key !== key || t.affix);
}

export function closeLeft(tabs: TabItem[], key: string): TabItem[] {
  const i = tabs.findIndex((t) => t.key === key);
  if (i <= 0) return tabs;
  return tabs.filter((t, j) => j >= i || t.affix);
}

export function closeRight(tabs: TabItem[], key: string): TabItem[] {
  const i = tabs.findIndex((t) => t.key === key);
  if (i === -1) return tabs;
  return tabs.filter((t, j) => j <= i || t.affix);
}

export function closeOthers(tabs: TabItem[], key: string): TabItem[] {
  return tabs.filter((t) => t.key === key || t.affix);
}

export function closeAll(tabs: TabItem[]): TabItem[] {
  return tabs.filter((t) => t.affix);
}

/** Moves the tab `fromKey` to the place of `toKey`. */
export function moveTab(tabs: TabItem[], fromKey: string, toKey: string): TabItem[] {
  const from = tabs.findIndex((t) => t.key === fromKey);
  const to = tabs.findIndex((t) => t.key === toKey);
  if (from === -1 || to === -1 || from === to) return tabs;
  const next = tabs.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/**
 * The tab to show after closing: the active one when it survived, else its right
 * neighbour among the survivors, else the last survivor (or null when none is left).
 */
export function nextActiveTab(before: TabItem[], after: TabItem[], activeKey: string): TabItem | null {
  const kept = after.find((t) => t.key === activeKey);
  if (kept) return kept;
  const idx = before.findIndex((t) => t.key === activeKey);
  const keys = new Set(after.map((t) => t.key));
  for (let i = idx + 1; i < before.length; i += 1) if (keys.has(before[i].key)) return after.find((t) => t.key === before[i].key) ?? null;
  for (let i = idx - 1; i >= 0; i -= 1) if (keys.has(before[i].key)) return after.find((t) => t.key === before[i].key) ?? null;
  return after[after.length - 1] ?? null;
}
