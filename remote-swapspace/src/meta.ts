// The 交换空间 remote's menu, as the shell's side menu shows it.
import { remoteMeta, REMOTE_CONTRACT_VERSION, type FerryTab } from '@app/shared';

/** A segment of 我的摆渡: a tab of the user's tasks, or the files received. */
export type MyFerryState = FerryTab | 'received';

/** The states of my ferry tasks, and the files received from other zones, shown as in-page tabs of 我的摆渡. */
export const MY_FERRY_STATES: Array<{ key: MyFerryState; path: string; title: string }> = [
  { key: 'processing', path: '/swapSpace/myFerry/processing', title: '审批中' },
  { key: 'completed', path: '/swapSpace/myFerry/completed', title: '已完成' },
  { key: 'rejected', path: '/swapSpace/myFerry/rejected', title: '已驳回' },
  { key: 'received', path: '/swapSpace/myFerry/received', title: '收到的文件' },
];

// The contract version this remote was built against, inlined by the build (shared/src/contract.ts
// says why not REMOTE_CONTRACT_VERSION at run time); Jest, which has no build, runs one checkout.
export default remoteMeta(
  'swapspace',
  typeof __REMOTE_CONTRACT_VERSION__ === 'number' ? __REMOTE_CONTRACT_VERSION__ : REMOTE_CONTRACT_VERSION,
);
