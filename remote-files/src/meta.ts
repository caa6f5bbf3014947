// The files remote's menu: the shell builds the 云文档 sub-menu from it. The titles of the
// two spaces are replaced at run time by the configured folder names (EnvironmentConfig).
import { remoteMeta } from '@app/shared';

export default remoteMeta('files');
