// 云文档 access policies of enterprise files and folders (docs/integration.md, "Rights: levels
// and how they are found").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

const LevelSchema = (description: string) => Type.Integer({ minimum: 0, maximum: 4, description });
const LEVEL_TEXT = '0 无权限，1 预览，2 下载，3 上传/编辑，4 管理';
const SUBJECT_TEXT = '1 用户，2 部门（含下级部门的成员），3 用户组';

export const PermissionSchema = Type.Object(
  {
    fileId: IdString(),
    level: LevelSchema(LEVEL_TEXT),
    permissions: Type.Array(Type.String(), { description: '该级别对应的权限名称' }),
  },
  { title: '权限' },
);
export type Permission = Static<typeof PermissionSchema>;

export const PolicySchema = Type.Object(
  {
    id: IdString(),
    subjectType: Type.Integer({ minimum: 1, maximum: 3, description: SUBJECT_TEXT }),
    subjectId: IdString(),
    subjectName: Type.String({ description: '用户昵称、部门名称或用户组名称' }),
    level: LevelSchema(LEVEL_TEXT),
    createdAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
  },
  { title: '访问策略' },
);
export type Policy = Static<typeof PolicySchema>;

export const PolicyListSchema = Type.Object(
  {
    fileId: IdString(),
    inherited: Type.Boolean({ description: '该项没有自己的策略列表（生效的列表来自上级，或全路径都没有列表）' }),
    inheritedFrom: Type.Union(
      [Type.Object({ id: IdString(), name: Type.String(), namePath: Type.String() }), Type.Null()],
      { description: '生效列表所属的上级；自己的列表或全路径都没有列表时为 null' },
    ),
    policies: Type.Array(PolicySchema),
  },
  { title: '访问策略列表' },
);
export type PolicyList = Static<typeof PolicyListSchema>;

export const FileIdQuerySchema = Type.Object({ fileId: IdString('文件或文件夹 id') });
export const FolderIdQuerySchema = Type.Object({ folderId: IdString('文件夹 id') });
export const PolicyParamsSchema = Type.Object({ id: IdString('文件或文件夹 id') });
export const PoliciesQuerySchema = Type.Object({
  validOnly: Type.Optional(Type.Boolean({ default: true, description: 'true：生效的列表（自己的或继承的）；false：仅该项自己的列表' })),
});
export type PoliciesQuery = Static<typeof PoliciesQuerySchema>;

export const POLICIES_MAX = 500;

export const SetPoliciesBodySchema = Type.Object({
  fileId: IdString('文件或文件夹 id'),
  policies: Type.Array(
    Type.Object({
      subjectType: Type.Integer({ minimum: 1, maximum: 3, description: SUBJECT_TEXT }),
      subjectId: IdString('用户、部门或用户组 id'),
      level: LevelSchema(LEVEL_TEXT),
    }),
    { maxItems: POLICIES_MAX, description: '替换该项自己的策略列表；空数组表示恢复继承' },
  ),
});
export type SetPoliciesBody = Static<typeof SetPoliciesBodySchema>;

export const CalcBodySchema = Type.Object({
  fileIds: Type.Array(IdString(), { minItems: 1, maxItems: 1000, description: '文件或文件夹 id 列表' }),
  userId: Type.Optional(IdString('要计算其权限的用户；不传则为当前用户')),
});
export type CalcBody = Static<typeof CalcBodySchema>;
