// What the operation log records: one code per kind of action, its Chinese name, and the group
// the log page filters by. The web client keeps the same names (shared/src/oplog.ts).

export const OPLOG_ACTIONS = {
  // sign-in and the account
  'auth.login': '登录',
  'auth.login.fail': '登录失败',
  'auth.lockout': '登录被锁定',
  'auth.logout': '退出登录',
  'auth.password': '修改密码',
  'auth.totp': '绑定动态口令',
  'auth.apppassword.create': '创建应用密码',
  'auth.apppassword.revoke': '撤销应用密码',
  // files
  'file.upload': '上传',
  'file.create': '新建',
  'file.download': '下载',
  'file.zip': '打包下载',
  'file.preview': '预览',
  'file.rename': '重命名',
  'file.move': '移动',
  'file.copy': '复制',
  'file.delete': '删除',
  'file.restore': '从回收站还原',
  'file.purge': '彻底删除',
  'file.version': '版本操作',
  'file.policy': '修改访问权限',
  // shares
  'share.create': '创建分享',
  'share.change': '修改分享',
  'share.cancel': '取消分享',
  'share.visit': '访问分享',
  'share.download': '通过分享下载',
  // approvals
  'workflow.start': '发起审批',
  'workflow.act': '审批操作',
  'workflow.remind': '催办',
  // administration (the admin log's action text is in detail)
  'admin.action': '管理操作',
  'admin.settings': '修改系统设置',
  // the ferry's own audit chain, linked in
  'ferry.event': '摆渡',
  // the log itself
  'log.pruned': '清理过期日志',
} as const;

export type OplogAction = keyof typeof OPLOG_ACTIONS;

/** The groups of the page's filter, by prefix. */
export const OPLOG_GROUPS: Record<string, string> = {
  auth: '登录与账号',
  file: '文件',
  share: '分享',
  workflow: '审批',
  admin: '系统管理',
  ferry: '摆渡',
  log: '日志',
};

export const actionName = (action: string): string => (OPLOG_ACTIONS as Record<string, string>)[action] ?? action;
