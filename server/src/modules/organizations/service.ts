// The 云文档 department tree.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { findRootDepartment, insertDepartment, listDepartments } from './repository';
import type { DepartmentNode } from './schemas';

export const ROOT_DEPARTMENT_NAME = '总部';

export class OrganizationsService {
  constructor(private readonly db: Kysely<Database>) {}

  async departmentTree(): Promise<DepartmentNode[]> {
    const rows = await listDepartments(this.db);
    const nodes = new Map<number, DepartmentNode>();
    for (const r of rows) {
      nodes.set(r.id, { id: String(r.id), parentId: r.parent_id === null ? null : String(r.parent_id), name: r.name, path: r.path, children: [] });
    }
    const roots: DepartmentNode[] = [];
    for (const r of rows) {
      const node = nodes.get(r.id)!;
      const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }

  /** The root department, created on the first start. */
  async ensureRootDepartment(db: Kysely<Database> = this.db): Promise<number> {
    const existing = await findRootDepartment(db);
    if (existing) return existing.id;
    const row = await insertDepartment(db, { parentId: null, parentPath: '', name: ROOT_DEPARTMENT_NAME, now: Date.now() });
    return row.id;
  }
}
