// The exchange-space remote's menu: the shell builds the 交换空间 sub-menu from it.
import type { RemoteMeta } from '@app/shared';

const meta: RemoteMeta = {
  name: 'swapspace',
  title: '交换空间',
  menu: [
    { key: 'myFerry', path: '/swapSpace/myFerry/processing', title: '我的摆渡', icon: 'SwapOutlined', feature: 'ferrySpaces' },
    { key: 'setFerry', path: '/swapSpace/setFerry', title: '摆渡设置', icon: 'SettingOutlined', feature: 'ferrySpaces' },
    { key: 'audit', path: '/swapSpace/audit', title: '统计审计', icon: 'AuditOutlined', feature: 'ferrySpaces' },
  ],
};

/** The states of my ferry tasks, shown as in-page tabs of 我的摆渡. */
export const MY_FERRY_STATES = [
  { key: 'processing', path: '/swapSpace/myFerry/processing', title: '审批中' },
  { key: 'completed', path: '/swapSpace/myFerry/completed', title: '已完成' },
  { key: 'rejected', path: '/swapSpace/myFerry/rejected', title: '已驳回' },
];

export default meta;
