// The share remote's entries in the 云文档 side menu.
import { remoteMeta } from '@app/shared';

export default remoteMeta('share');
