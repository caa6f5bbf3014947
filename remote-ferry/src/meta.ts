// The 文件摆渡 remote's menu (the only remote in simple mode).
import { remoteMeta } from '@app/shared';

export default remoteMeta('ferry');
