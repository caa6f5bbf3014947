// Who may see and change what in 云文档. Every file call asks this one place; an item the
// caller may not read answers 404 as if it did not exist. Finer file access policies
// (per folder, per department) will be added here.
import type { ItemRow, UserRow } from '../../db/types';
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
