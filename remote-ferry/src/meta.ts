// The file-ferry remote's menu (simple mode shows only this module).
import type { RemoteMeta } from '@app/shared';

const meta: RemoteMeta = {
  name: 'ferry',
  title: '文件摆渡',
  menu: [{ key: 'file', path: '/ferry/file', title: '文件摆渡', icon: 'SwapOutlined' }],
};

export default meta;
