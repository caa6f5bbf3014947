// The menus of the 云文档 layout: main menu sections gated by the feature policy, and the
// side menu of a section built from the remotes' `./meta` plus the shell's own entries.
import { REMOTE_MENUS } from '@app/shared';
import type {
  EnvironmentConfig,
  FeaturePolicy,
  HomeInfo,
  MenuName,
  RemoteMenuItem,
  RemoteName,
  Roles,
} from '@app/shared';

export type SectionKey = 'file' | 'workflow' | 'swapSpace' | 'ferry';

export interface Section {
  key: SectionKey;
  title: string;
  /** the Home menu entry that gates it */
  menuName: MenuName;
  defaultPath: string;
  /** remotes whose `./meta` feeds the side menu, in order */
  remotes: RemoteName[];
}

export const SECTIONS: Record<SectionKey, Section> = {
  file: { key: 'file', title: '云文档', menuName: 'file', defaultPath: '/file/personal', remotes: ['files', 'share'] },
  workflow: { key: 'workflow', title: '流程', menuName: 'workflow', defaultPath: '/workflow/list', remotes: ['workflow'] },
  swapSpace: { key: 'swapSpace', title: '交换空间', menuName: 'swapSpace', defaultPath: '/swapSpace/myFerry/processing', remotes: ['swapspace'] },
  ferry: { key: 'ferry', title: '文件摆渡', menuName: 'ferry', defaultPath: '/ferry/file', remotes: ['ferry'] },
};

/** The shell's fixed side-menu entries of each section (after the remotes' entries). */
export const FIXED_ENTRIES: Record<SectionKey, RemoteMenuItem[]> = {
  file: [
    { key: 'setting-tag', path: '/setting/tag', title: '标签管理', icon: 'SettingOutlined' },
    { key: 'setting-about', path: '/setting/about', title: '关于', icon: 'InfoCircleOutlined' },
  ],
  workflow: [],
  swapSpace: [],
  ferry: [],
};

/** Titles of the shell's own pages (for tabs). */
export const SHELL_TITLES: Record<string, string> = {
  '/error-log/list': '错误日志',
  '/account': '个人设置',
  '/admin': '系统管理',
  '/404': '页面不存在',
};

/** Which section a path belongs to. */
export function sectionOfPath(pathname: string, simple: boolean): SectionKey | null {
  const first = pathname.split('/').filter(Boolean)[0] ?? '';
  if (simple) return first === 'ferry' || first === 'error-log' ? 'ferry' : null;
  if (first === 'file' || first === 'setting' || first === 'error-log') return 'file';
  if (first === 'workflow') return 'workflow';
  if (first === 'swapSpace') return 'swapSpace';
  return null;
}

/** Which remote renders a path (null for the shell's own pages). */
export function remoteOfPath(pathname: string): RemoteName | null {
  const parts = pathname.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'file':
      return parts[1] === 'sharelist' || parts[1] === 'shareme' ? 'share' : 'files';
    case 'setting':
      return 'files';
    case 'workflow':
      return 'workflow';
    case 'swapSpace':
      return 'swapspace';
    case 'ferry':
      return 'ferry';
    default:
      return null;
  }
}

const menuEntry = (home: HomeInfo | null, name: MenuName) => home?.menus.find((m) => m.name === name);

/** Whether a main-menu section shows (spec section 2: feature policy; isShow of its entry). */
export function isSectionEnabled(key: SectionKey, policy: FeaturePolicy | null, home: HomeInfo | null, simple: boolean): boolean {
  if (simple) return key === 'ferry';
  if (key === 'ferry') return false;
  if (!policy) return false;
  if (menuEntry(home, SECTIONS[key].menuName)?.isShow === false) return false;
  if (key === 'file') return policy.personalSpace || policy.publicSpace;
  if (key === 'workflow') return policy.workflow;
  return policy.ferrySpaces;
}

export interface MainMenuItem {
  key: SectionKey;
  title: string;
  path: string;
}

export function mainMenuItems(policy: FeaturePolicy | null, home: HomeInfo | null, simple: boolean): MainMenuItem[] {
  const order: SectionKey[] = simple ? ['ferry'] : ['file', 'workflow', 'swapSpace'];
  return order
    .filter((k) => isSectionEnabled(k, policy, home, simple))
    .map((k) => {
      const entry = menuEntry(home, SECTIONS[k].menuName);
      return { key: k, title: SECTIONS[k].title, path: entry?.isShow && entry.path ? entry.path : SECTIONS[k].defaultPath };
    });
}

export interface SideMenuContext {
  policy: FeaturePolicy | null;
  roles: Roles | null;
  env: EnvironmentConfig;
  /** the `./meta` menus loaded so far */
  metas: Partial<Record<RemoteName, RemoteMenuItem[]>>;
}

/** The side menu of a section: each remote's meta (or the fallback), then fixed entries. */
export function sideMenuItems(key: SectionKey, ctx: SideMenuContext): RemoteMenuItem[] {
  const items: RemoteMenuItem[] = [];
  const seen = new Set<string>();
  for (const remote of SECTIONS[key].remotes) {
    for (const item of ctx.metas[remote] ?? REMOTE_MENUS[remote]) {
      if (seen.has(item.path)) continue;
      seen.add(item.path);
      items.push(item);
    }
  }
  for (const item of FIXED_ENTRIES[key]) if (!seen.has(item.path)) items.push(item);
  return items
    .filter((item) => !item.feature || !ctx.policy || ctx.policy[item.feature])
    .filter((item) => {
      if (item.path === '/file/personal') return ctx.roles?.personalSpace !== false;
      if (item.path === '/file/public') return ctx.roles?.publicSpace !== false;
      return true;
    })
    .map((item) => {
      if (item.path === '/file/personal') return { ...item, title: ctx.env.personalFolderName || item.title };
      if (item.path === '/file/public') return { ...item, title: ctx.env.publicFolderName || item.title };
      return item;
    });
}

/** The side-menu entry a path falls under: the longest entry path that prefixes it. */
export function matchMenuItem(pathname: string, items: RemoteMenuItem[]): RemoteMenuItem | null {
  let best: RemoteMenuItem | null = null;
  for (const item of items) {
    const base = item.path.replace(/\/+$/, '');
    if (pathname === base || pathname.startsWith(`${base}/`)) {
      if (!best || base.length > best.path.length) best = item;
    }
  }
  if (!best) {
    // /swapSpace/myFerry/completed belongs to 我的摆渡 (/swapSpace/myFerry/processing)
    for (const item of items) {
      const parent = item.path.split('/').slice(0, -1).join('/');
      if (parent.split('/').length > 2 && pathname.startsWith(`${parent}/`)) return item;
    }
  }
  return best;
}
