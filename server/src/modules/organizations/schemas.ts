// 云文档 organisation: the department tree.
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const DepartmentNodeSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    path: Type.String({ description: '从根部门到本部门的 id，以 / 分隔' }),
    children: Type.Array(Type.Unknown(), { description: '下级部门（结构同本节点）' }),
  },
  { title: '部门' },
);

export interface DepartmentNode {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  children: DepartmentNode[];
}

export type DepartmentNodeStatic = Static<typeof DepartmentNodeSchema>;
