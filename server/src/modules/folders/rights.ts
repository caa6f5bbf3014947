// Who may see and change what in 云文档. Every file call asks this one place; an item the
// caller may not read answers 404 as if it did not exist. Finer file access policies
// (per folder, per department) will be added here.
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import type { FeaturePolicy } from '../settings/schemas';

export const SPACE_ENTERPRISE = 1;
export const SPACE_PERSONAL = 2;

export interface Access {
  read: boolean;
  write: boolean;
}

const NONE: Access = { read: false, write: false };

export function accessTo(user: UserRow, item: Pick<ItemRow, 'space_type' | 'owner_id'>, policy: FeaturePolicy): Access {
  if (user.disabled) return NONE;
  if (item.space_type === SPACE_PERSONAL) {
    // a personal space belongs to its owner alone
    const own = item.owner_id === user.id && policy.personalSpace;
    return { read: own, write: own };
  }
  if (item.space_type === SPACE_ENTERPRISE) {
    const read = policy.publicSpace;
    return { read, write: read && user.is_doc_admin === 1 };
  }
  return NONE;
}

const READ_PERMISSIONS = ['view', 'download'];
const WRITE_PERMISSIONS = ['upload', 'createFolder', 'createFile', 'rename', 'move', 'copy', 'delete'];

/** The permission names listed on an item (Item.permissions). */
export function permissionsOf(access: Access): string[] {
  if (!access.read) return [];
  return access.write ? [...READ_PERMISSIONS, ...WRITE_PERMISSIONS] : [...READ_PERMISSIONS];
}

/** Access levels (docs/integration.md, "Rights: levels and how they are found"). */
export const LEVEL = { none: 0, preview: 1, download: 2, edit: 3, manage: 4 } as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

/** What the rights of an item depend on. */
export type RightsRow = Pick<ItemRow, 'id' | 'id_path' | 'space_type' | 'owner_id'>;

/** The caller's levels on a set of items, loaded at the time of the call. */
export interface Rights {
  level(row: RightsRow): Level;
  can(row: RightsRow, need: Level): boolean;
}

/** The permission names listed on an item (Item.permissions) for a level. */
export function permissionsFor(level: Level): string[] {
  const out: string[] = [];
  if (level >= LEVEL.preview) out.push('view');
  if (level >= LEVEL.download) out.push('download', 'copy');
  if (level >= LEVEL.edit) out.push('upload', 'createFolder', 'createFile', 'rename', 'move', 'delete', 'version');
  if (level >= LEVEL.manage) out.push('manage');
  return out;
}

export class RightsService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Loads what is needed to answer for `rows` (and anything on their paths). */
  async load(user: UserRow, policy: FeaturePolicy, rows: readonly RightsRow[]): Promise<Rights> {
    void this.db;
    void rows;
    const level = (row: RightsRow): Level => {
      const a = accessTo(user, row, policy);
      return a.write ? LEVEL.manage : a.read ? LEVEL.download : LEVEL.none;
    };
    return { level, can: (row, need) => level(row) >= need };
  }
}
