// The 交换空间 remote's menu, as the shell's side menu shows it.
import { remoteMeta } from '@app/shared';

/** The states of my ferry tasks, shown as in-page tabs of 我的摆渡. */
export const MY_FERRY_STATES = [
  { key: 'processing', path: '/swapSpace/myFerry/processing', title: '审批中' },
  { key: 'completed', path: '/swapSpace/myFerry/completed', title: '已完成' },
  { key: 'rejected', path: '/swapSpace/myFerry/rejected', title: '已驳回' },
];

export default remoteMeta('swapspace');
