// What a person gets from the department tree: the feature switches and the personal quota set
// on a department apply to its whole subtree, the nearest department's setting wins, and the
// person's own setting wins over every department's.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, UserRow } from '../../db/types';
import type { FeaturePolicy } from '../settings/schemas';

export const FEATURE_KEYS = ['personalSpace', 'publicSpace', 'workflow', 'ferrySpaces'] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
/** A switch left null follows the level above. */
export type FeatureOverride = Record<FeatureKey, boolean | null>;

export const NO_OVERRIDE: FeatureOverride = { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null };

/** The switches stored on a department or a person (JSON; unknown keys and non-booleans are ignored). */
export function parseOverride(text: string | null): FeatureOverride {
  if (!text) return { ...NO_OVERRIDE };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ...NO_OVERRIDE };
  }
  const out = { ...NO_OVERRIDE };
  if (raw && typeof raw === 'object') {
    for (const k of FEATURE_KEYS) {
      const v = (raw as Record<string, unknown>)[k];
      if (typeof v === 'boolean') out[k] = v;
    }
  }
  return out;
}

/** What is stored: null when nothing is set. */
export function storeOverride(o: Partial<FeatureOverride>): string | null {
  const set = Object.fromEntries(FEATURE_KEYS.filter((k) => typeof o[k] === 'boolean').map((k) => [k, o[k]]));
  return Object.keys(set).length ? JSON.stringify(set) : null;
}

type ChainRow = Pick<DepartmentRow, 'id' | 'name' | 'path' | 'quota' | 'feature_policy'>;

/** The department and those above it, the nearest first (empty for no department). */
export async function departmentChain(db: Kysely<Database>, deptId: number | null): Promise<ChainRow[]> {
  if (deptId === null) return [];
  const dept = await db.selectFrom('departments').select(['id', 'name', 'path', 'quota', 'feature_policy']).where('id', '=', deptId).executeTakeFirst();
  if (!dept) return [];
  const ids = dept.path.split('/').filter(Boolean).map(Number).filter((n) => n !== dept.id);
  const above = ids.length
    ? await db.selectFrom('departments').select(['id', 'name', 'path', 'quota', 'feature_policy']).where('id', 'in', ids).execute()
    : [];
  above.sort((a, b) => b.path.length - a.path.length);
  return [dept, ...above];
}

export interface ResolvedPolicy {
  effective: FeaturePolicy;
  /** per switch: 全局, 部门：<name> or 个人 */
  source: Record<FeatureKey, string>;
}

export function resolvePolicy(global: FeaturePolicy, chain: readonly ChainRow[], own: FeatureOverride): ResolvedPolicy {
  const effective = { ...global };
  const source = { personalSpace: '全局', publicSpace: '全局', workflow: '全局', ferrySpaces: '全局' } as Record<FeatureKey, string>;
  // from the top down: the nearest department is applied last
  for (const d of [...chain].reverse()) {
    const o = parseOverride(d.feature_policy);
    for (const k of FEATURE_KEYS) {
      if (o[k] !== null) {
        effective[k] = o[k] as boolean;
        source[k] = `部门：${d.name}`;
      }
    }
  }
  for (const k of FEATURE_KEYS) {
    if (own[k] !== null) {
      effective[k] = own[k] as boolean;
      source[k] = '个人';
    }
  }
  return { effective, source };
}

/** The quota that applies (bytes, 0: unlimited): the person's own, else the nearest department's, else the default. */
export function resolveQuota(user: Pick<UserRow, 'quota'>, chain: readonly ChainRow[], defaultQuota: number): number {
  if (user.quota !== null && user.quota !== undefined) return Number(user.quota);
  for (const d of chain) if (d.quota !== null && d.quota !== undefined) return Number(d.quota);
  return defaultQuota;
}
