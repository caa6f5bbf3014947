// A remote's area in the 云文档 layout: checks the remote's contract version and loads the
// exposed component on demand, and contains any failure in an error boundary with
// 模块加载失败 and a 重试 button, or, for a remote whose contract the shell cannot run,
// 模块版本不兼容 naming both versions; the rest of the shell keeps working. A retry builds a
// new React.lazy (a rejected lazy stays rejected) and re-mounts the boundary.
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { appendErrorLog, Messages } from '@app/shared';
import { RemoteContractError } from './contract';
import { loadRemoteComponent } from './remotes';

interface BoundaryProps {
  remoteId: string;
  onRetry: () => void;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

export const CONTRACT_MISMATCH_TITLE = '模块版本不兼容';

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
      detail: error instanceof RemoteContractError ? error.detail : (info.componentStack ?? undefined),
    });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof RemoteContractError) {
      // retrying cannot help: the remote's deployment (or the shell's) has to change first
      return (
        <div role="alert" style={{ padding: '48px 24px' }}>
          <Result
            status="warning"
            title={CONTRACT_MISMATCH_TITLE}
            subTitle={error.message}
            extra={<Button onClick={() => window.location.reload()}>重新加载页面</Button>}
          />
        </div>
      );
    }
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
        default: await loadRemoteComponent<ComponentType<Record<string, unknown>>>(id),
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
