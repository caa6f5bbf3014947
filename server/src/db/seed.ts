// First-start seeding of 云文档, safe to run on every start: settings, the root department,
// the administrator, the enterprise root folder and a personal root folder for every user.
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import { AppError, isUniqueViolation } from '../lib/errors';
import { generatePassword } from '../modules/auth/password';
import { findUserByKey, userNameKey, usersWithoutPersonalRoot } from '../modules/users/repository';
import type { Services } from '../services';
import type { Database } from './types';

export interface BootstrapResult {
  adminUserName: string;
  /** set only on the start that created the administrator without ADMIN_PASSWORD */
  generatedAdminPassword: string | null;
}

export const ADMIN_NICK_NAME = '系统管理员';

export async function seed(db: Kysely<Database>, s: Services, config: Pick<AppConfig, 'adminUser' | 'adminPassword'>): Promise<BootstrapResult> {
  await s.settings.seedDefaults();
  await s.organizations.ensureRootDepartment();

  let generatedAdminPassword: string | null = null;
  let admin = await findUserByKey(db, userNameKey(config.adminUser));
  if (!admin) {
    const password = config.adminPassword ?? generatePassword(await s.settings.passwordPolicy());
    try {
      admin = await s.users.createUser(
        {
          userName: config.adminUser,
          nickName: ADMIN_NICK_NAME,
          password,
          isAdmin: true,
          isDocAdmin: true,
          isFlowAdmin: true,
          isTagAdmin: true,
          allowBackendLogin: true,
          allowRepositoryLogin: true,
        },
        { enforcePolicy: false },
      );
      if (config.adminPassword === null) generatedAdminPassword = password;
    } catch (err) {
      // another instance seeded the same database at the same moment
      admin = await findUserByKey(db, userNameKey(config.adminUser));
      if (!admin) {
        if (err instanceof AppError) throw new Error(`无法创建管理员账号 ${config.adminUser}：${err.message}`);
        throw err;
      }
    }
  }

  const env = await s.settings.environmentConfig();
  await s.folders.ensureEnterpriseRoot(db, admin.id, env.publicFolderName);
  for (const user of await usersWithoutPersonalRoot(db)) {
    await s.folders.createPersonalRoot(db, user.id, env.personalFolderName).catch((err: unknown) => {
      if (!isUniqueViolation(err)) throw err;
    });
  }
  await s.workflow.seedDefault(admin.id);
  await s.ferry.seed(admin.id);
  return { adminUserName: admin.user_name, generatedAdminPassword };
}
