// Departments named by path (`总部/研发中心/前端组`), as 批量导入 and 目录同步 name them: finding a
// department by its names, placing a path that does not exist yet (every missing level, the
// upper ones first), and creating those levels.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow } from '../../db/types';
import { listDepartments } from './repository';
import type { OrganizationsService } from './service';

/** A department found by path, or the full path of one to create. */
export type PlacedDepartment = { id: number } | { create: string };

export class DepartmentPaths {
  /** by the names below the root, `/`-joined ('' is the root) */
  private readonly byPath = new Map<string, DepartmentRow>();
  /** the full names of each department, the root's own included */
  private readonly names = new Map<number, string>();
  readonly root: DepartmentRow;

  constructor(rows: DepartmentRow[]) {
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    this.root = rows.find((r) => r.parent_id === null)!;
    for (const r of rows) {
      const names = r.path
        .split('/')
        .filter(Boolean)
        .map((id) => byId.get(Number(id))?.name ?? '');
      this.byPath.set(names.slice(1).join('/'), r);
      this.names.set(Number(r.id), names.join('/'));
    }
  }

  static async load(db: Kysely<Database>): Promise<DepartmentPaths> {
    return new DepartmentPaths(await listDepartments(db));
  }

  /** The names below the root: a path may start with the root's own name or leave it out. */
  relative(segments: string[]): string[] {
    return segments[0] === this.root.name ? segments.slice(1) : segments;
  }

  find(relative: string[]): DepartmentRow | undefined {
    return this.byPath.get(relative.join('/'));
  }

  /** `总部/研发中心/前端组` for a department id ('' for none or an unknown one). */
  namesOf(deptId: number | null): string {
    return deptId === null ? '' : (this.names.get(deptId) ?? '');
  }

  /**
   * Where a path lands: the department when it exists; else its full path, with every
   * missing level added to `toCreate` (upper levels first, each once).
   */
  place(segments: string[], toCreate: string[]): PlacedDepartment {
    const rel = this.relative(segments);
    const found = rel.length ? this.find(rel) : this.root;
    if (found) return { id: Number(found.id) };
    for (let i = 1; i <= rel.length; i++) {
      const part = rel.slice(0, i);
      const full = [this.root.name, ...part].join('/');
      if (!this.find(part) && !toCreate.includes(full)) toCreate.push(full);
    }
    return { create: [this.root.name, ...rel].join('/') };
  }
}

/**
 * Creates the departments of `paths` (full paths, upper levels first, as `place` lists them);
 * returns the id of each. `made` is called for each new one (to mark its source).
 */
export async function createDepartmentPaths(
  db: Kysely<Database>,
  organizations: OrganizationsService,
  paths: readonly string[],
  made: (id: number) => Promise<void> = async () => undefined,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  // the departments there before: a new one's parent is either among them or made here earlier
  const before = paths.length ? await DepartmentPaths.load(db) : null;
  for (const full of paths) {
    const segments = full.split('/');
    const parentFull = segments.slice(0, -1).join('/');
    let parentId = ids.get(parentFull);
    if (parentId === undefined) {
      const now = before!;
      const parent = segments.length === 2 ? now.root : now.find(now.relative(segments.slice(0, -1)));
      if (!parent) throw new Error(`上级部门“${parentFull}”不存在`);
      parentId = Number(parent.id);
    }
    const d = await organizations.createDepartment({ name: segments[segments.length - 1], parentId: String(parentId) });
    ids.set(full, Number(d.id));
    await made(Number(d.id));
  }
  return ids;
}
