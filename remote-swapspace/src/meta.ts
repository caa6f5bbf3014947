// The 交换空间 remote's menu, as the shell's side menu shows it.
import { remoteMeta, type FerryTab } from '@app/shared';

/** A segment of 我的摆渡: a tab of the user's tasks, or the files received. */
export type MyFerryState = FerryTab | 'received';

/** The states of my ferry tasks, and the files received from other zones, shown as in-page tabs of 我的摆渡. */
export const MY_FERRY_STATES: Array<{ key: MyFerryState; path: string; title: string }> = [
  { key: 'processing', path: '/swapSpace/myFerry/processing', title: '审批中' },
  { key: 'completed', path: '/swapSpace/myFerry/completed', title: '已完成' },
  { key: 'rejected', path: '/swapSpace/myFerry/rejected', title: '已驳回' },
  { key: 'received', path: '/swapSpace/myFerry/received', title: '收到的文件' },
];

export default remoteMeta('swapspace');
