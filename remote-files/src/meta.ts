// The files remote's menu: the shell builds the 云文档 sub-menu from it. The titles of the
// two spaces are replaced at run time by the configured folder names (EnvironmentConfig).
import type { RemoteMeta } from '@app/shared';

const meta: RemoteMeta = {
  name: 'files',
  title: '云文档',
  menu: [
    { key: 'personal', path: '/file/personal', title: '个人文件', icon: 'UserOutlined', feature: 'personalSpace' },
    { key: 'public', path: '/file/public', title: '企业文件', icon: 'BankOutlined', feature: 'publicSpace' },
    { key: 'favorite', path: '/file/favorite', title: '我的收藏', icon: 'StarOutlined' },
    { key: 'tag', path: '/file/tag', title: '标签', icon: 'TagsOutlined' },
    { key: 'recycle', path: '/file/recycle', title: '回收站', icon: 'DeleteOutlined' },
    { key: 'advancedSearch', path: '/file/advancedSearch', title: '高级搜索', icon: 'FileSearchOutlined' },
  ],
};

export default meta;
