import type { FolderItems, Item } from '@app/shared';

export function item(over: Partial<Item> & Pick<Item, 'id' | 'name'>): Item {
  return {
    parentId: null,
    type: 'file',
    extension: '',
    size: 0,
    idPath: `2/${over.id}`,
    namePath: over.name,
    spaceType: 2,
    ownerId: '1',
    ownerName: '张三',
    createdAt: '2026-03-01 09:00:00',
    updatedAt: '2026-03-01 09:30:00',
    isFavorite: false,
    tags: [],
    permissions: [],
    ...over,
  };
}

export const personalRoot = item({ id: '10', name: '个人文件', type: 'folder', idPath: '2/10', namePath: '个人文件' });
export const publicRoot = item({ id: '20', name: '企业文件', type: 'folder', idPath: '1/20', namePath: '企业文件', spaceType: 1 });

export const docsFolder = item({
  id: '11', parentId: '10', name: '项目文档', type: 'folder', idPath: '2/10/11', namePath: '个人文件/项目文档',
  updatedAt: '2026-02-14 18:05:00',
});
export const report = item({
  id: '12', parentId: '10', name: '季度报告.docx', extension: 'docx', size: 1536, idPath: '2/10/12',
  namePath: '个人文件/季度报告.docx', ownerName: '李四', updatedAt: '2026-03-01 09:30:00',
});
export const plan = item({
  id: '13', parentId: '11', name: '计划.xlsx', extension: 'xlsx', size: 2 * 1024 * 1024, idPath: '2/10/11/13',
  namePath: '个人文件/项目文档/计划.xlsx',
});

export function page(folder: Item, data: Item[], total = data.length): FolderItems {
  return { folder, items: { data, total } };
}

/** Every right the server lists for a writable item. */
export const WRITE = ['view', 'download', 'upload', 'createFolder', 'createFile', 'rename', 'move', 'copy', 'delete'];
export const READ = ['view', 'download'];
