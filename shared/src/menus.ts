// The side-menu entries of each remote: what a remote's `./meta` publishes, and what the
// shell shows before that remote is loaded (a manifest is fetched only when a route of its
// remote is shown) or when it cannot be loaded.
import type { RemoteMenuItem, RemoteMeta, RemoteName } from './api/types';

export const REMOTE_MENUS: Record<RemoteName, RemoteMenuItem[]> = {
  files: [
    { key: 'personal', path: '/file/personal', title: '个人文件', icon: 'UserOutlined', feature: 'personalSpace' },
    { key: 'public', path: '/file/public', title: '企业文件', icon: 'BankOutlined', feature: 'publicSpace' },
    { key: 'favorite', path: '/file/favorite', title: '我的收藏', icon: 'StarOutlined' },
    { key: 'tag', path: '/file/tag', title: '标签', icon: 'TagsOutlined' },
    { key: 'recycle', path: '/file/recycle', title: '回收站', icon: 'DeleteOutlined' },
    { key: 'advancedSearch', path: '/file/advancedSearch', title: '高级搜索', icon: 'FileSearchOutlined' },
  ],
  share: [
    { key: 'sharelist', path: '/file/sharelist', title: '分享记录', icon: 'ShareAltOutlined' },
    { key: 'shareme', path: '/file/shareme', title: '与我共享', icon: 'TeamOutlined' },
  ],
  workflow: [
    { key: 'list', path: '/workflow/list', title: '流程列表', icon: 'UnorderedListOutlined', feature: 'workflow' },
    { key: 'informationDetails', path: '/workflow/informationDetails', title: '流程详情', icon: 'ProfileOutlined', feature: 'workflow' },
  ],
  swapspace: [
    { key: 'myFerry', path: '/swapSpace/myFerry/processing', title: '我的摆渡', icon: 'SwapOutlined', feature: 'ferrySpaces' },
    { key: 'setFerry', path: '/swapSpace/setFerry', title: '摆渡设置', icon: 'SettingOutlined', feature: 'ferrySpaces' },
    { key: 'audit', path: '/swapSpace/audit', title: '统计审计', icon: 'AuditOutlined', feature: 'ferrySpaces' },
  ],
  ferry: [{ key: 'file', path: '/ferry/file', title: '文件摆渡', icon: 'SwapOutlined' }],
};

const REMOTE_TITLES: Record<RemoteName, string> = {
  files: '云文档',
  share: '分享',
  workflow: '流程',
  swapspace: '交换空间',
  ferry: '文件摆渡',
};

/**
 * The `./meta` module of a remote. `contract` is the contract version the remote was built
 * against: the remote passes the number its build inlined (shared/src/contract.ts says why it
 * must not come from here at run time).
 */
export function remoteMeta(name: RemoteName, contract?: number): RemoteMeta {
  const meta: RemoteMeta = { name, title: REMOTE_TITLES[name], menu: REMOTE_MENUS[name] };
  if (typeof contract === 'number') meta.contract = contract;
  return meta;
}
