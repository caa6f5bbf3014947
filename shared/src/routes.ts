// Route names and paths of 云文档 (spec section 2) and the jump-to-file helper.
import type { FeaturePolicy, MenuEntry, Roles } from './api/types';
import { Messages } from './constants';
import { navigateTo } from './navigation';
import { notify } from './notify';

export const RoutePath = {
  Login: '/login',
  Outsource: '/s/:shareId',
  PreviewVideo: '/previewVideo',
  MobilityPreview: '/mobilityPreview',
  Preview: '/preview/:previewData',
  Authorization: '/authorization',
  SignUp: '/signUp',
  Service: '/service',
  Agreement: '/agreement',
  Privacy: '/privacy',
  Enterprisefile: '/file/public',
  Personalfile: '/file/personal',
  Sendfile: '/file/sharelist',
  shareme: '/file/shareme',
  Favorite: '/file/favorite',
  Tag: '/file/tag',
  Recycle: '/file/recycle',
  AdvancedSearch: '/file/advancedSearch',
  Setting: '/setting',
  SwapSpace: '/swapSpace',
  Workflow: '/workflow',
  Ferry: '/ferry',
  ErrorLog: '/error-log/list',
  NotFound: '/404',
} as const;
export type RouteName = keyof typeof RoutePath;

/** Routes reachable without a token. */
export const PUBLIC_ROUTE_NAMES: RouteName[] = [
  'Login', 'Outsource', 'PreviewVideo', 'MobilityPreview', 'Preview', 'Authorization',
  'SignUp', 'Service', 'Agreement', 'Privacy',
];

const PUBLIC_PREFIXES = ['/s/', '/preview/'];
const PUBLIC_EXACT = ['/login', '/previewVideo', '/mobilityPreview', '/authorization', '/signUp', '/service', '/agreement', '/privacy'];

/** True when `pathname` is one of the public routes. */
export function isPublicPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return PUBLIC_EXACT.includes(p) || PUBLIC_PREFIXES.some((prefix) => p.startsWith(prefix) && p.length > prefix.length);
}

/**
 * Start-up redirect rule (spec section 2): with a token, a path containing the name of a
 * menu entry flagged not shown goes to the base home. Returns the path to go to, or null.
 */
export function startupRedirect(pathname: string, menus: MenuEntry[] | undefined, baseHome: string, hasToken: boolean): string | null {
  if (!hasToken || !menus?.length) return null;
  if (pathname.startsWith('/preview') || pathname.startsWith('/s/')) return null;
  const segments = pathname.split('/').filter(Boolean);
  const entry = menus.find((m) => m.name === segments[0]) ?? menus.find((m) => segments.includes(m.name));
  if (entry && !entry.isShow) return baseHome && baseHome !== pathname ? baseHome : null;
  return null;
}

/** Home path: the first shown menu entry, else the server's base home, else not found. */
export function homePathOf(menus: MenuEntry[] | undefined, baseHome?: string): string {
  const first = menus?.find((m) => m.isShow);
  if (first?.path) return first.path;
  if (menus && menus.length > 0) return RoutePath.NotFound;
  return baseHome || RoutePath.NotFound;
}

/** Query parameter of a folder route naming the item to select and scroll into view. */
export const FOCUS_PARAM = 'focus';

export interface JumpTarget {
  /** slash-separated ids; the first segment is the space (1 enterprise, 2 personal) */
  idPath: string;
  /** 'file': the last segment is a file, shown selected in its folder (default 'folder') */
  type?: 'file' | 'folder' | null;
}

export type JumpResult =
  | { ok: true; name: 'Enterprisefile' | 'Personalfile'; path: string; segments: string[] }
  | { ok: false; reason: string };

/**
 * Where an id path leads (spec sections 2 and 5): first segment 1 → Enterprisefile, anything
 * else → Personalfile. The route carries the id-path segments after the screen's path:
 * folder `1/5/9` → `/file/public/1/5/9` (the last segment is the folder shown). A file opens
 * its folder with the file named in `?focus=`: file `2/10/12` → `/file/personal/2/10?focus=12`.
 * The path needs at least 2 segments, and the role list must allow the space.
 */
export function resolveFileJump(
  idPath: string,
  access?: Partial<Roles & FeaturePolicy> | null,
  type: JumpTarget['type'] = 'folder',
): JumpResult {
  const segments = String(idPath ?? '').split('/').filter(Boolean);
  if (segments.length < 2) return { ok: false, reason: Messages.invalidIdPath };
  const enterprise = segments[0] === '1';
  if (access) {
    if (enterprise && access.publicSpace === false) return { ok: false, reason: Messages.noEnterpriseAccess };
    if (!enterprise && access.personalSpace === false) return { ok: false, reason: Messages.noPersonalAccess };
  }
  const name = enterprise ? 'Enterprisefile' : 'Personalfile';
  const base = RoutePath[name];
  if (type === 'file') {
    const folder = segments.slice(0, -1);
    const fileId = segments[segments.length - 1];
    const at = folder.length >= 2 ? `${base}/${folder.join('/')}` : base;
    return { ok: true, name, path: `${at}?${FOCUS_PARAM}=${encodeURIComponent(fileId)}`, segments };
  }
  return { ok: true, name, path: `${base}/${segments.join('/')}`, segments };
}

/**
 * Opens the screen of a file or folder by its id path; warns (and stays) when the path is
 * too short or the feature policy blocks that space. Returns whether it navigated.
 */
export function jumpToFile(target: JumpTarget | string, access?: Partial<Roles & FeaturePolicy> | null, navigate?: (to: string) => void): boolean {
  const t = typeof target === 'string' ? { idPath: target } : target;
  const result = resolveFileJump(t.idPath, access, t.type);
  if (!result.ok) {
    notify.warning(result.reason);
    return false;
  }
  (navigate ?? navigateTo)(result.path);
  return true;
}
