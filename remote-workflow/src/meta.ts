// The 流程 remote's menu, as the shell's side menu shows it.
import { remoteMeta } from '@app/shared';

export default remoteMeta('workflow');
