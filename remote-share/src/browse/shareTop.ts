// The top of a share in 与我共享: the shared folder itself when it is one folder, otherwise the
// shared items listed together (a file, or several items), made from the share's record.
import { shareTitle, type FolderItems, type Item, type ShareRecord } from '@app/shared';

/** The folder to open first: the one shared folder, else null (the items together). */
export function topOf(record: Pick<ShareRecord, 'items'>): string | null {
  return record.items.length === 1 && record.items[0].type === 'folder' ? record.items[0].id : null;
}

/** What a share's level allows on an item (the names Item.permissions uses). */
export function permissionsOfLevel(level: number): string[] {
  const out = ['view'];
  if (level >= 2) out.push('download', 'copy');
  if (level >= 3) out.push('upload', 'createFolder', 'createFile', 'rename', 'move', 'delete', 'version');
  return out;
}

/** The share's items as the content of a folder of its own. */
export function itemsOfRecord(record: ShareRecord): FolderItems {
  const permissions = permissionsOfLevel(record.level);
  const base = (id: string, name: string): Item => ({
    id,
    parentId: null,
    name,
    type: 'folder',
    extension: '',
    size: 0,
    idPath: id,
    namePath: name,
    spaceType: 2,
    ownerId: record.ownerId,
    ownerName: record.ownerName,
    createdAt: record.createdAt,
    updatedAt: record.createdAt,
    isFavorite: false,
    tags: [],
    permissions,
  });
  const data: Item[] = record.items.map((i) => ({
    ...base(i.id, i.name),
    type: i.type === 'folder' ? 'folder' : 'file',
    extension: i.extension,
    size: i.size,
  }));
  return { folder: { ...base('', shareTitle(record)), permissions: permissions.filter((p) => p !== 'upload') }, items: { data, total: data.length } };
}
