// Fixtures of 云文档's file ferry for the tests of the shared ferry components and of the
// pages that show them (remote-ferry, remote-swapspace).
import type { FerryInboxItem, FerryTaskDetail, FerryTaskFile, FerryTaskRow, FerryZones, Item } from '@app/shared';

export const ferryZones = (over: Partial<FerryZones> = {}): FerryZones => ({
  zone: '内网',
  targets: ['外网', '研发网'],
  uploadFolderId: '50',
  ...over,
});

export const HASH = 'a3f1c2d4e5b6978812345678901234567890abcdefabcdefabcdef0123456789';

export const ferryRow = (over: Partial<FerryTaskRow> = {}): FerryTaskRow => ({
  taskId: 't1',
  number: 'BD20261124000012',
  fromZone: '内网',
  targetZone: '外网',
  recipients: ['wangwu', 'zhaoliu'],
  reason: '向合作方提交季度报告',
  status: 'pending',
  requester: { userId: '1', name: '张三' },
  fileCount: 2,
  totalSize: 3 * 1024 * 1024,
  instanceId: 'i9',
  statusReason: '',
  createdAt: '2026-11-24 09:30:00',
  updatedAt: '2026-11-24 09:30:00',
  deliveredAt: '',
  downloadedAt: '',
  expiresAt: '',
  ...over,
});

export const ferryFile = (over: Partial<FerryTaskFile> = {}): FerryTaskFile => ({
  fileId: '12',
  name: '季度报告.pdf',
  size: 2 * 1024 * 1024,
  sha256: HASH,
  detectedType: 'pdf',
  checks: [
    { name: 'type', result: 'passed', message: '实际类型为 pdf' },
    { name: 'keyword', result: 'passed', message: '未发现敏感词' },
    { name: 'antivirus', result: 'skipped', message: '未安装 ClamAV，未进行病毒查杀' },
  ],
  keywordHits: [],
  blocked: false,
  ...over,
});

export const ferryDetail = (over: Partial<FerryTaskDetail> = {}): FerryTaskDetail => ({
  ...ferryRow(),
  files: [
    ferryFile(),
    ferryFile({
      fileId: '13',
      name: '合同.docx',
      size: 1024 * 1024,
      sha256: 'b'.repeat(64),
      detectedType: 'docx',
      checks: [
        { name: 'type', result: 'passed', message: '实际类型为 docx' },
        { name: 'keyword', result: 'passed', message: '发现敏感词 2 处，已提交审批' },
      ],
      keywordHits: [{ keyword: '机密', count: 2, context: '本合同属于机密文件，请勿外传' }],
    }),
  ],
  events: [
    { at: '2026-11-24 09:30:00', text: '已提交，开始检查', actorName: '张三' },
    { at: '2026-11-24 09:30:05', text: '检查通过，等待审批', actorName: '' },
  ],
  can: { cancel: false, preview: false },
  ...over,
});

export const inboxItem = (over: Partial<FerryInboxItem> = {}): FerryInboxItem => ({
  id: 'p1',
  taskId: 'x1',
  number: 'BD20261120000003',
  fromZone: '外网',
  senderName: '李雷',
  reason: '发来投标文件',
  files: [
    { index: 0, name: '投标书.pdf', size: 2048, sha256: HASH },
    { index: 1, name: '报价单.xlsx', size: 1024, sha256: 'c'.repeat(64) },
  ],
  totalSize: 3072,
  status: 'delivered',
  receivedAt: '2026-11-23 15:00:00',
  expiresAt: '2026-11-30 15:00:00',
  downloadedAt: '',
  ...over,
});

/** A file of a folder listing (the ferry's upload folder is 50, in 个人文件). */
export const folderFile = (id: string, name: string, size = 1024, over: Partial<Item> = {}): Item => ({
  id,
  parentId: '50',
  name,
  type: 'file',
  extension: name.includes('.') ? (name.split('.').pop() ?? '') : '',
  size,
  idPath: `2/10/50/${id}`,
  namePath: `个人文件/文件摆渡/${name}`,
  spaceType: 2,
  ownerId: '1',
  ownerName: '张三',
  createdAt: '2026-11-20 10:00:00',
  updatedAt: '2026-11-20 10:00:00',
  isFavorite: false,
  tags: [],
  permissions: ['view', 'download'],
  ...over,
});
