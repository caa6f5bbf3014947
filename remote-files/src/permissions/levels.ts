// Access levels and policy subjects of 云文档's enterprise files (docs/integration.md,
// "Rights: levels and how they are found"): their Chinese names and what each level allows.
import type { AccessLevel, SubjectType } from '@app/shared';

export interface AccessLevelInfo {
  value: AccessLevel;
  label: string;
  /** what the level allows, in one line */
  help: string;
}

/** The five levels, lowest first; each level includes everything the lower ones allow. */
export const ACCESS_LEVELS: readonly AccessLevelInfo[] = [
  { value: 0, label: '无权限', help: '看不到该文件（夹），也无法访问' },
  { value: 1, label: '预览', help: '可在列表中看到并在线预览' },
  { value: 2, label: '下载', help: '在预览之外，还可下载和复制到其他位置' },
  { value: 3, label: '上传/编辑', help: '在下载之外，还可新建、上传、重命名、移动、删除和管理历史版本' },
  { value: 4, label: '管理', help: '拥有全部权限，并可设置访问权限' },
];

export const ACCESS_LEVEL_NAMES: Record<AccessLevel, string> = { 0: '无权限', 1: '预览', 2: '下载', 3: '上传/编辑', 4: '管理' };

/** The Chinese name of a level (the number itself for a level this client does not know). */
export const accessLevelName = (level: number) => ACCESS_LEVEL_NAMES[level as AccessLevel] ?? String(level);

/** The level a newly added member starts with. */
export const DEFAULT_MEMBER_LEVEL: AccessLevel = 2;

/** With no policy list anywhere on an item's path, every enabled member has this level. */
export const ENTERPRISE_DEFAULT_LEVEL: AccessLevel = 2;

export const SUBJECT_TYPE_NAMES: Record<SubjectType, string> = { 1: '用户', 2: '部门', 3: '用户组' };

export const subjectTypeName = (type: number) => SUBJECT_TYPE_NAMES[type as SubjectType] ?? '未知';
