// A remote's area in the 云文档 layout: loads the exposed component on demand, and contains
// any failure in an error boundary with 模块加载失败 and a 重试 button; the rest of the shell
// keeps working. A retry builds a new React.lazy (a rejected lazy stays rejected) and
// re-mounts the boundary.
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { appendErrorLog, Messages } from '@app/shared';
import { loadRemoteDefault } from './remotes';

interface BoundaryProps {
  remoteId: string;
  onRetry: () => void;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

export class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    appendErrorLog({
      type: 'remote',
      message: error.message || Messages.remoteFailed,
      url: this.props.remoteId,
      detail: info.componentStack ?? undefined,
    });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" style={{ padding: '48px 24px' }}>
        <Result
          status="error"
          title={Messages.remoteFailed}
          subTitle={error.message || '请检查网络后重试，其他功能不受影响。'}
          extra={
            <Button type="primary" onClick={this.props.onRetry}>
              {Messages.retry}
            </Button>
          }
        />
      </div>
    );
  }
}

export function RemoteLoading() {
  return (
    <div style={{ padding: 64, textAlign: 'center' }}>
      <Spin delay={50} />
    </div>
  );
}

export interface RemoteAreaProps {
  /** federated id, e.g. 'files/App' */
  id: string;
  props?: Record<string, unknown>;
}

export function RemoteArea({ id, props }: RemoteAreaProps) {
  const [attempt, setAttempt] = useState(0);
  const Remote = useMemo(
    () =>
      lazy(async () => ({
        default: await loadRemoteDefault<ComponentType<Record<string, unknown>>>(id, 'component'),
      })),
    // a new lazy component for every attempt
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [id, attempt],
  );
  return (
    <RemoteErrorBoundary key={`${id}#${attempt}`} remoteId={id} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<RemoteLoading />}>
        <Remote {...props} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
