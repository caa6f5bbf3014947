// The shell's side of the shell ↔ remote contract (shared/src/contract.ts): reads the version a
// remote's './meta' declares, decides whether the shell can run it, and adapts an older one.
// Same version: load normally. One behind or one ahead (REMOTE_CONTRACT_MIN…MAX): load, adapted
// where needed. Anything else: refused with RemoteContractError, which RemoteArea shows in that
// remote's place only (the menus and the other remotes keep working) and logs to the error log.
import {
  REMOTE_CONTRACT_MAX,
  REMOTE_CONTRACT_MIN,
  REMOTE_CONTRACT_VERSION,
  UNVERSIONED_REMOTE_CONTRACT,
  type RemoteMeta,
  type RemoteName,
} from '@app/shared';

/** How the notices name each remote. */
export const REMOTE_LABELS: Record<RemoteName, string> = {
  files: '文件模块',
  workflow: '流程模块',
  swapspace: '交换空间模块',
  ferry: '文件摆渡模块',
  share: '分享模块',
};

export type ContractCheck =
  | { ok: true; version: number; relation: 'same' | 'older' | 'newer' }
  | { ok: false; version: number | null; declared: unknown; relation: 'older' | 'newer' | 'invalid' };

/** The contract version a './meta' declares: none is version 1; anything but a positive integer is invalid (null). */
export function declaredContract(meta: Pick<RemoteMeta, 'contract'>): number | null {
  const value: unknown = meta.contract;
  if (value === undefined) return UNVERSIONED_REMOTE_CONTRACT;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

export function checkContract(meta: Pick<RemoteMeta, 'contract'>): ContractCheck {
  const version = declaredContract(meta);
  if (version === null) return { ok: false, version, declared: meta.contract, relation: 'invalid' };
  const relation = version === REMOTE_CONTRACT_VERSION ? 'same' : version < REMOTE_CONTRACT_VERSION ? 'older' : 'newer';
  if (version < REMOTE_CONTRACT_MIN || version > REMOTE_CONTRACT_MAX) {
    return { ok: false, version, declared: meta.contract, relation: relation as 'older' | 'newer' };
  }
  return { ok: true, version, relation };
}

/**
 * A remote's './meta' as the shell's contract has it. Where a contract change left an older
 * remote behind, fill in here what it lacks. Version 1 only lacks the `contract` field itself.
 * A newer remote's extra fields are ignored: version N+1 only adds (shared/src/contract.ts).
 */
export function adaptMeta(meta: RemoteMeta, version: number): RemoteMeta {
  return { ...meta, contract: version };
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The notice shown in a refused remote's place, in Chinese, naming both versions. */
export function contractMismatchMessage(remote: RemoteName, check: Extract<ContractCheck, { ok: false }>): string {
  const label = REMOTE_LABELS[remote];
  const shell = `外壳（契约 ${REMOTE_CONTRACT_VERSION}）`;
  if (check.relation === 'invalid') {
    return `${label}声明的契约版本无效（${shown(check.declared)}），与${shell}不兼容，请检查该模块的部署。`;
  }
  const head = `${label}的版本（契约 ${check.version}）与${shell}不兼容`;
  return check.relation === 'older'
    ? `${head}，请更新该模块的部署。`
    : `${head}：该模块比外壳新，请先更新外壳的部署，或回退该模块。`;
}

/** A remote whose contract version the shell cannot run. */
export class RemoteContractError extends Error {
  readonly remote: RemoteName;
  readonly check: Extract<ContractCheck, { ok: false }>;
  constructor(remote: RemoteName, check: Extract<ContractCheck, { ok: false }>) {
    super(contractMismatchMessage(remote, check));
    this.name = 'RemoteContractError';
    this.remote = remote;
    this.check = check;
  }

  /** For the error log: both versions and the range the shell supports. */
  get detail(): string {
    const declared = this.check.version ?? shown(this.check.declared);
    return `模块契约 ${declared}，外壳契约 ${REMOTE_CONTRACT_VERSION}，外壳支持契约 ${REMOTE_CONTRACT_MIN}–${REMOTE_CONTRACT_MAX}`;
  }
}
