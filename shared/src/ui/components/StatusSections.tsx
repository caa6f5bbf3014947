import type { ReactNode } from 'react';
import { Alert, Button, Result } from 'antd';

/** A part of a page that could not be loaded, with a button that tries again. */
export function LoadError({ message, onRetry, title = '加载失败' }: { message?: ReactNode; onRetry: () => void; title?: ReactNode }) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={message || '请求出错，请稍后重试'}
      extra={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}

/** A path inside a remote that names no page. */
export function NotFoundSection() {
  return <Result status="404" title="页面不存在" subTitle="您访问的页面不存在或已被移除" />;
}

/** The feature policy does not allow this page (spec section 5 wording). */
export function PolicyWarning({ message }: { message: ReactNode }) {
  return <Alert type="warning" showIcon title={message} style={{ margin: 16 }} />;
}
