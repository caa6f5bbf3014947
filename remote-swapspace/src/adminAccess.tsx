// What the administrator pages of 云文档's exchange space (摆渡设置, 统计审计) share: the server
// answers HTTP 403 (code 40301) with a Chinese sentence to anyone who is not an administrator,
// and the page shows that sentence instead of a blank or a retry button.
import type { ReactNode } from 'react';
import { Result } from 'antd';
import { isApiError } from '@app/shared';
import { LoadError } from '@app/shared/ui';

export const ACCESS_TEXTS = {
  forbiddenTitle: '无权访问',
  forbiddenNote: '仅管理员可以查看和修改此页面',
} as const;

/** The call was refused because the caller is not an administrator (HTTP 403 / code 403xx). */
export function isForbidden(e: unknown): boolean {
  return isApiError(e) && (e.status === 403 || e.code === 403 || String(e.code).startsWith('403'));
}

/** The server's sentence for a refused call (or a general note when it sent none). */
export function forbiddenMessage(e: unknown): string {
  return (isApiError(e) && (e.serverMessage || e.message)) || ACCESS_TEXTS.forbiddenNote;
}

/** The page body shown to someone the server refused. */
export function Forbidden({ message }: { message: ReactNode }) {
  return <Result status="403" title={ACCESS_TEXTS.forbiddenTitle} subTitle={message || ACCESS_TEXTS.forbiddenNote} />;
}

/** A failed load: the 403 sentence for a refused caller, else the error with 重试. */
export function LoadFailure({ error, message, onRetry }: { error: unknown; message?: string; onRetry: () => void }) {
  if (isForbidden(error)) return <Forbidden message={forbiddenMessage(error)} />;
  return <LoadError message={message} onRetry={onRetry} />;
}
