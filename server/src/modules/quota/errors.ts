// The one refusal of a full personal space, for uploads, copies and moves alike.
import { AppError } from '../../lib/errors';

/** HTTP 413, code 41301: the personal space would go over its quota. */
export const overQuota = (what: 'upload' | 'transfer' = 'upload') =>
  new AppError(
    413,
    41301,
    what === 'upload' ? '个人空间容量不足，无法上传该文件，请清理后重试' : '目标个人空间容量不足，无法复制或移动到这里，请清理后重试',
  );
