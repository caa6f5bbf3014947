import { Segmented, Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';

/** One navigation entry: a remote's meta menu item has this shape. */
export interface NavEntry {
  key: string;
  path: string;
  title: string;
}

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * The entry that the current path belongs to: the one sharing the most leading path
 * segments with it, at least two (the remote's own root segment is not enough).
 */
export function activeNavKey(entries: NavEntry[], pathname: string): string | undefined {
  const here = segments(pathname);
  let best: { key: string; score: number } | undefined;
  for (const entry of entries) {
    const there = segments(entry.path);
    let score = 0;
    while (score < there.length && score < here.length && there[score] === here[score]) score += 1;
    if (score === there.length) score += 0.5; // the entry's whole path is a prefix: prefer it
    if (score >= 2 && (!best || score > best.score)) best = { key: entry.key, score };
  }
  return best?.key;
}

export interface RemoteNavProps {
  entries: NavEntry[];
  /** tabs (default) for a section's pages, segmented for the states inside one page. */
  variant?: 'tabs' | 'segmented';
  /** Accessible name of the navigation. */
  label?: string;
}

/** In-page navigation between the absolute paths of a remote's pages. */
export function RemoteNav({ entries, variant = 'tabs', label = '页面导航' }: RemoteNavProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = activeNavKey(entries, pathname);
  const go = (key: string) => {
    const entry = entries.find((e) => e.key === key);
    if (entry && entry.key !== active) navigate(entry.path);
  };
  return (
    <nav aria-label={label}>
      {variant === 'segmented' ? (
        <Segmented
          value={active ?? ''}
          options={entries.map((e) => ({ value: e.key, label: e.title }))}
          onChange={(value) => go(String(value))}
        />
      ) : (
        <Tabs
          activeKey={active}
          items={entries.map((e) => ({ key: e.key, label: e.title }))}
          onChange={go}
          style={{ marginBottom: 0 }}
        />
      )}
    </nav>
  );
}
