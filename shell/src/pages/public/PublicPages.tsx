// Public pages of 云文档 reachable without signing in (spec section 2). Plain React: no antd.
import { PublicFrame } from './PublicFrame';
import './public.css';

export { SignUpPage } from './SignUpPage';

export function ServicePage() {
  return (
    <PublicFrame title="服务协议">
      <p>欢迎使用云文档。云文档是本单位为员工提供的企业云文档与文件工作区，用于存放、共享和流转工作文件。</p>
      <h2>一、账号</h2>
      <p>账号由本单位统一开通。请妥善保管用户名和密码，不得转借他人；因账号保管不当造成的损失由账号持有人负责。</p>
      <h2>二、使用规范</h2>
      <ul>
        <li>仅可存放与工作相关的文件，不得上传违法违规内容。</li>
        <li>对外分享文件前，请确认内容可以对外公开，并合理设置分享期限。</li>
        <li>不得利用本系统从事任何危害系统安全的行为。</li>
      </ul>
      <h2>三、数据</h2>
      <p>文件数据存放在本单位的服务器上，由系统管理员负责备份与维护。删除的文件会先进入回收站。</p>
    </PublicFrame>
  );
}

export function PrivacyPage() {
  return (
    <PublicFrame title="隐私政策">
      <p>云文档只收集提供服务所必需的信息：账号信息（用户名、昵称、部门）、登录记录，以及您上传的文件和操作记录。</p>
      <h2>信息的使用</h2>
      <p>这些信息仅用于身份验证、权限控制、文件共享与审计，不会用于其他目的，也不会提供给本单位以外的第三方。</p>
      <h2>Cookie 与本地存储</h2>
      <p>浏览器中会保存登录令牌和界面设置，登录信息在 7 天后过期；退出登录时会清除。</p>
    </PublicFrame>
  );
}

export { AuthorizationPage } from './AuthorizationPage';
