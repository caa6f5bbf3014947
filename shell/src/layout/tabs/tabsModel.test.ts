import { closeAll, closeLeft, closeOthers, closeRight, closeTab, moveTab, nextActiveTab, openTab, type TabItem } from './tabsModel';

const t = (key: string, affix = false): TabItem => ({ key, path: key, title: key, affix });
const keys = (tabs: TabItem[]) => tabs.map((x) => x.key);
// a fixed tab in the middle proves that affix tabs survive every close
const tabs = [t('/home', true), t('/a'), t('/b'), t('/pinned', true), t('/c'), t('/d')];

describe('tabs model', () => {
  it('opens a tab once and updates its path', () => {
    let list = openTab([], t('/a'));
    list = openTab(list, { ...t('/a'), path: '/a/sub' });
    expect(list).toEqual([{ key: '/a', path: '/a/sub', title: '/a', affix: false }]);
  });

  it('close keeps affix tabs', () => {
    expect(keys(closeTab(tabs, '/b'))).toEqual(['/home', '/a', '/pinned', '/c', '/d']);
    expect(keys(closeTab(tabs, '/home'))).toEqual(keys(tabs));
  });

  it('close left / right keep affix tabs', () => {
    expect(keys(closeLeft(tabs, '/c'))).toEqual(['/home', '/pinned', '/c', '/d']);
    expect(keys(closeRight(tabs, '/a'))).toEqual(['/home', '/a', '/pinned']);
  });

  it('close others / all keep affix tabs', () => {
    expect(keys(closeOthers(tabs, '/c'))).toEqual(['/home', '/pinned', '/c']);
    expect(keys(closeAll(tabs))).toEqual(['/home', '/pinned']);
  });

  it('moves a tab', () => {
    expect(keys(moveTab(tabs, '/d', '/a'))).toEqual(['/home', '/d', '/a', '/b', '/pinned', '/c']);
    expect(moveTab(tabs, '/x', '/a')).toBe(tabs);
  });

  it('picks the next active tab: itself, else the right neighbour, else the left one', () => {
    expect(nextActiveTab(tabs, closeTab(tabs, '/b'), '/a')?.key).toBe('/a');
    expect(nextActiveTab(tabs, closeTab(tabs, '/b'), '/b')?.key).toBe('/pinned');
    expect(nextActiveTab(tabs, closeTab(tabs, '/d'), '/d')?.key).toBe('/c');
    expect(nextActiveTab(tabs, closeAll(tabs), '/c')?.key).toBe('/pinned');
    expect(nextActiveTab(tabs, closeAll(tabs), '/a')?.key).toBe('/pinned');
  });
});
