// 云文档 settings and the home/menu computation.
import type { Kysely } from 'kysely';
import type { Mode } from '../../config';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { departmentChain, parseOverride, resolvePolicy, resolveQuota, type ResolvedPolicy } from '../organizations/inheritance';
import { insertSettingIfMissing, readSetting, writeSetting, type SettingKey } from './repository';
import type { Branding, EnvironmentConfig, FeaturePolicy, Home, MenuEntry, PasswordPolicy, PreviewPolicy, UploadPolicy, UploadPolicyBody } from './schemas';

export const DEFAULT_FEATURE_POLICY: FeaturePolicy = {
  personalSpace: true,
  publicSpace: true,
  workflow: true,
  ferrySpaces: true,
};

export const DEFAULT_ENVIRONMENT_CONFIG: EnvironmentConfig = {
  personalFolderName: '个人文件',
  publicFolderName: '企业文件',
};

export const DEFAULT_BRANDING: Branding = {
  systemName_Client: '云文档',
  favroiteIcon: '',
  login_Background: '',
  logo_Dark: '',
  logo_Dark_Large: '',
  logo_Light: '',
};

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 8,
  requireDigit: true,
  requireLetter: true,
  requireSymbol: false,
  requireMixedCase: false,
  historyCount: 3,
  expiryDays: 0,
  lockoutThreshold: 5,
  lockoutMinutes: 15,
  totpRequired: false,
  webdavAccountPassword: false,
};

/** Uploads: rapid upload only from content the caller can read; no personal quota; no chunk check (spec section 9). */
export const DEFAULT_UPLOAD_POLICY: UploadPolicy = {
  rapidUploadOrganization: false,
  personalQuota: 0,
  chunkCheck: false,
  rapidUpload: true,
  maxFileSize: 5 * 1024 ** 3,
  maxFileCount: 500,
};

/** Preview: a watermark over enterprise files (docs/integration.md, "Preview"). */
export const DEFAULT_PREVIEW_POLICY: PreviewPolicy = { watermark: true };

/** The ferry (ferry/settings.ts), the agreements (agreements/service.ts), the directory (directory/service.ts) and notice delivery (notice-delivery/) keep their own settings. */
type OwnKey = Exclude<SettingKey, 'ferrySettings' | 'serviceAgreement' | 'privacyPolicy' | 'ldapSettings' | 'dingtalkSyncSettings' | 'mailSettings' | 'noticePolicy'>;

const DEFAULTS: Record<OwnKey, object> = {
  featurePolicy: DEFAULT_FEATURE_POLICY,
  uploadPolicy: DEFAULT_UPLOAD_POLICY,
  environmentConfig: DEFAULT_ENVIRONMENT_CONFIG,
  branding: DEFAULT_BRANDING,
  passwordPolicy: DEFAULT_PASSWORD_POLICY,
  previewPolicy: DEFAULT_PREVIEW_POLICY,
};

/** The stored object laid over the defaults, keeping only known keys of the default's type. */
function merge<T extends object>(defaults: T, stored: unknown): T {
  const out = { ...defaults } as Record<string, unknown>;
  if (stored && typeof stored === 'object') {
    for (const [k, v] of Object.entries(stored as Record<string, unknown>)) {
      if (k in out && typeof v === typeof out[k]) out[k] = v;
    }
  }
  return out as T;
}

export class SettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly mode: Mode,
  ) {}

  private async read<T extends object>(key: OwnKey): Promise<T> {
    return merge(DEFAULTS[key] as T, await readSetting(this.db, key));
  }

  featurePolicy(): Promise<FeaturePolicy> {
    return this.read<FeaturePolicy>('featurePolicy');
  }

  /** The policy that applies to one user: the global one, then their departments' switches (the nearest wins), then their own. */
  async policyFor(user: UserRow): Promise<FeaturePolicy> {
    return (await this.resolvedPolicyFor(user)).effective;
  }

  /** policyFor with where each switch comes from (系统管理 shows it). */
  async resolvedPolicyFor(user: Pick<UserRow, 'dept_id' | 'feature_policy'>): Promise<ResolvedPolicy> {
    const [global, chain] = await Promise.all([this.featurePolicy(), departmentChain(this.db, user.dept_id)]);
    return resolvePolicy(global, chain, parseOverride(user.feature_policy ?? null));
  }

  /**
   * The personal quota of a user (bytes, 0: unlimited): their own, else their nearest
   * department's, else the default of the upload policy. Read before a transaction (SQLite
   * has one connection).
   */
  async quotaFor(userId: number): Promise<number> {
    const user = await this.db.selectFrom('users').select(['quota', 'dept_id']).where('id', '=', userId).executeTakeFirst();
    const defaultQuota = (await this.uploadPolicy()).personalQuota;
    if (!user) return defaultQuota;
    return resolveQuota(user, await departmentChain(this.db, user.dept_id), defaultQuota);
  }

  async setFeaturePolicy(policy: FeaturePolicy): Promise<FeaturePolicy> {
    const clean = merge(DEFAULT_FEATURE_POLICY, policy);
    await writeSetting(this.db, 'featurePolicy', clean, Date.now());
    return clean;
  }

  environmentConfig(): Promise<EnvironmentConfig> {
    return this.read<EnvironmentConfig>('environmentConfig');
  }

  /** The names the two spaces' roots show (they are read at every listing, so a change shows at once). */
  async setEnvironmentConfig(config: EnvironmentConfig): Promise<EnvironmentConfig> {
    const clean = { personalFolderName: config.personalFolderName.trim(), publicFolderName: config.publicFolderName.trim() };
    for (const [name, what] of [
      [clean.personalFolderName, '个人空间'],
      [clean.publicFolderName, '企业空间'],
    ]) {
      if (!name) throw badRequest(`请输入${what}的名称`);
      if ([...name].length > 20) throw badRequest(`${what}的名称不能超过 20 个字符`);
      if (/[\\/:*?"<>|]/.test(name)) throw badRequest(`${what}的名称不能包含 \\ / : * ? " < > |`);
    }
    if (clean.personalFolderName === clean.publicFolderName) throw badRequest('个人空间与企业空间的名称不能相同');
    await writeSetting(this.db, 'environmentConfig', clean, Date.now());
    return clean;
  }

  branding(): Promise<Branding> {
    return this.read<Branding>('branding');
  }

  async setBranding(branding: Branding): Promise<Branding> {
    const clean = merge(DEFAULT_BRANDING, branding);
    await writeSetting(this.db, 'branding', clean, Date.now());
    return clean;
  }

  passwordPolicy(): Promise<PasswordPolicy> {
    return this.read<PasswordPolicy>('passwordPolicy');
  }

  /** What is left out of `policy` (webdavAccountPassword) keeps its current value. */
  async setPasswordPolicy(policy: PasswordPolicy): Promise<PasswordPolicy> {
    const clean = merge(await this.passwordPolicy(), policy);
    await writeSetting(this.db, 'passwordPolicy', clean, Date.now());
    return clean;
  }

  uploadPolicy(): Promise<UploadPolicy> {
    return this.read<UploadPolicy>('uploadPolicy');
  }

  /** What is left out of `policy` keeps its current value. */
  async setUploadPolicy(policy: UploadPolicyBody): Promise<UploadPolicy> {
    const clean = merge(await this.uploadPolicy(), policy);
    clean.personalQuota = Number.isSafeInteger(clean.personalQuota) && clean.personalQuota > 0 ? clean.personalQuota : 0;
    if (!Number.isSafeInteger(clean.maxFileSize) || clean.maxFileSize < 1024 * 1024) clean.maxFileSize = DEFAULT_UPLOAD_POLICY.maxFileSize;
    if (!Number.isInteger(clean.maxFileCount) || clean.maxFileCount < 1) clean.maxFileCount = DEFAULT_UPLOAD_POLICY.maxFileCount;
    await writeSetting(this.db, 'uploadPolicy', clean, Date.now());
    return clean;
  }

  previewPolicy(): Promise<PreviewPolicy> {
    return this.read<PreviewPolicy>('previewPolicy');
  }

  async setPreviewPolicy(policy: PreviewPolicy): Promise<PreviewPolicy> {
    const clean = merge(await this.previewPolicy(), policy);
    await writeSetting(this.db, 'previewPolicy', clean, Date.now());
    return clean;
  }

  /** Seeds every setting that has no value yet. */
  async seedDefaults(db: Kysely<Database> = this.db): Promise<void> {
    const now = Date.now();
    for (const [key, value] of Object.entries(DEFAULTS)) {
      // the upload and preview policies are stored on their first change; until then their defaults apply
      if (key === 'uploadPolicy' || key === 'previewPolicy') continue;
      await insertSettingIfMissing(db, key as SettingKey, value, now);
    }
  }

  /** GET /api/User/Home: roles, main menus and the base home of the caller. */
  async home(user: UserRow): Promise<Home> {
    return computeHome(await this.policyFor(user), this.mode);
  }
}

/**
 * Main menus per feature policy and mode (docs/integration.md, "Calls beyond the contract's
 * own text"): each entry's path is its landing page; the base home is the first shown
 * entry (云文档, 流程, 交换空间, or 文件摆渡 in simple mode), `/404` when none is shown.
 */
export function computeHome(policy: FeaturePolicy, mode: Mode): Home {
  const full = mode === 'full';
  const fileShown = full && (policy.personalSpace || policy.publicSpace);
  const menus: MenuEntry[] = [
    { name: 'file', path: policy.personalSpace ? '/file/personal' : '/file/public', title: '云文档', isShow: fileShown },
    { name: 'workflow', path: '/workflow/list', title: '流程', isShow: full && policy.workflow },
    { name: 'swapSpace', path: '/swapSpace/myFerry/processing', title: '交换空间', isShow: full && policy.ferrySpaces },
    { name: 'ferry', path: '/ferry/file', title: '文件摆渡', isShow: !full },
    { name: 'setting', path: '/setting/tag', title: '设置', isShow: fileShown },
  ];
  const baseHome = menus.find((m) => m.isShow)?.path ?? '/404';
  return {
    baseHome,
    roles: { personalSpace: policy.personalSpace, publicSpace: policy.publicSpace },
    menus,
  };
}
