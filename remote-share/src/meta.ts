// The share remote's menu entries; the shell adds them to the 云文档 sub-menu.
import type { RemoteMeta } from '@app/shared';

const meta: RemoteMeta = {
  name: 'share',
  title: '分享',
  menu: [
    { key: 'sharelist', path: '/file/sharelist', title: '分享记录', icon: 'ShareAltOutlined' },
    { key: 'shareme', path: '/file/shareme', title: '与我共享', icon: 'TeamOutlined' },
  ],
};

export default meta;
