// How the tests of 云文档's exchange-space administrator pages render them: the page alone inside
// the shell's providers and a MemoryRouter, signed in, with fixtures for the ferry settings,
// statistics and audit records (the `api` calls are mocked by each test).
import type { ReactElement } from 'react';
import { configure } from '@testing-library/react';
import type { FerryAuditRecord, FerrySettingsView, FerryStats } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';

// ByRole queries ask jsdom for the computed style of every element, which is slow with antd's
// style sheets: they skip the visibility check, and most tests find things by label or text.
configure({ defaultHidden: true });

export function renderPage(page: ReactElement, route = '/') {
  return renderWithProviders(page, { route, session: true });
}

// the queries every page test uses live in shared/src/test/queries.ts
export { button, pickOption, settled, toasts } from '@app/shared/test';

export const MB = 1024 * 1024;

export const settingsView = (over: Partial<FerrySettingsView> = {}): FerrySettingsView => ({
  zone: '内网',
  peers: [
    { zone: '外网', channel: 'spool' },
    { zone: '研发网', channel: 'https' },
  ],
  secretConfigured: true,
  antivirusEngine: 'ClamAV 1.0.7',
  antivirusMissing: '',
  knownTypes: ['pdf', 'docx', 'xlsx', 'png', 'txt', 'zip', 'exe'],
  directions: [
    { from: '内网', to: '外网', enabled: true, definitionId: '' },
    { from: '内网', to: '研发网', enabled: false, definitionId: 'd2' },
  ],
  typeCheck: true,
  allowedTypes: ['pdf', 'docx'],
  sizeCheck: true,
  maxFileSize: 100 * MB,
  maxTotalSize: 500 * MB,
  countCheck: true,
  maxFileCount: 20,
  keywordCheck: true,
  keywords: ['机密', '绝密'],
  antivirus: true,
  expiryDays: 7,
  auditRetentionDays: 180,
  ...over,
});

export const stats = (over: Partial<FerryStats> = {}): FerryStats => ({
  tasks: 12,
  files: 30,
  bytes: 5 * MB,
  byUser: [
    { name: '张三', tasks: 8, files: 20, bytes: 3 * MB },
    { name: '李四', tasks: 4, files: 10, bytes: 2 * MB },
  ],
  byDepartment: [
    { name: '研发部', tasks: 9, files: 24, bytes: 4 * MB },
    { name: '财务部', tasks: 3, files: 6, bytes: 1 * MB },
  ],
  byDirection: [
    { from: '内网', to: '外网', tasks: 10, files: 26, bytes: 4 * MB },
    { from: '内网', to: '研发网', tasks: 2, files: 4, bytes: 1 * MB },
  ],
  byBucket: [
    { bucket: '2026-11-23', tasks: 5, files: 12, bytes: 2 * MB },
    { bucket: '2026-11-24', tasks: 7, files: 18, bytes: 3 * MB },
  ],
  byStatus: [
    { status: 'delivered', tasks: 9 },
    { status: 'blocked', tasks: 2 },
    { status: 'rejected', tasks: 1 },
  ],
  blockedByReason: [
    { reason: '文件类型不在白名单中', count: 1 },
    { reason: '命中敏感词', count: 1 },
  ],
  medianApprovalMs: (2 * 60 + 5) * 60_000,
  ...over,
});

export const auditRecord = (seq: number, over: Partial<FerryAuditRecord> = {}): FerryAuditRecord => ({
  seq,
  at: `2026-11-24 09:${String(seq % 60).padStart(2, '0')}:00`,
  actorName: '张三',
  event: 'task.created',
  eventText: '提交摆渡申请',
  taskId: `t${seq}`,
  summary: `报告${seq}.pdf（2 MB，SHA-256 ab12…）内网 → 外网`,
  detail: {},
  hash: `${String(seq).padStart(4, '0')}${'a'.repeat(56)}beef`,
  ...over,
});
