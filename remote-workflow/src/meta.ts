// The workflow remote's menu: the shell builds the 流程 sub-menu from it.
import type { RemoteMeta } from '@app/shared';

const meta: RemoteMeta = {
  name: 'workflow',
  title: '流程',
  menu: [
    { key: 'list', path: '/workflow/list', title: '流程列表', icon: 'UnorderedListOutlined', feature: 'workflow' },
    { key: 'informationDetails', path: '/workflow/informationDetails', title: '流程详情', icon: 'ProfileOutlined', feature: 'workflow' },
  ],
};

export default meta;
