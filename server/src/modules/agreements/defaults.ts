// The built-in texts of 云文档's service agreement and privacy policy, shown until an
// administrator writes the organisation's own. Markup: see AgreementSchema.content.
import type { AgreementKind } from './schemas';

export const AGREEMENT_TITLES: Record<AgreementKind, string> = { service: '服务协议', privacy: '隐私政策' };

export const DEFAULT_AGREEMENTS: Record<AgreementKind, string> = {
  service: `欢迎使用云文档。云文档是本单位为员工提供的企业云文档与文件工作区，用于存放、共享和流转工作文件。

# 一、账号
账号由本单位统一开通。请妥善保管用户名和密码，不得转借他人；因账号保管不当造成的损失由账号持有人负责。

# 二、使用规范
- 仅可存放与工作相关的文件，不得上传违法违规内容。
- 对外分享文件前，请确认内容可以对外公开，并合理设置分享期限。
- 不得利用本系统从事任何危害系统安全的行为。

# 三、数据
文件数据存放在本单位的服务器上，由系统管理员负责备份与维护。删除的文件会先进入回收站。`,
  privacy: `云文档只收集提供服务所必需的信息：账号信息（用户名、昵称、部门）、登录记录，以及您上传的文件和操作记录。

# 信息的使用
这些信息仅用于身份验证、权限控制、文件共享与审计，不会用于其他目的，也不会提供给本单位以外的第三方。

# Cookie 与本地存储
浏览器中会保存登录令牌和界面设置，登录信息在 7 天后过期；退出登录时会清除。`,
};
