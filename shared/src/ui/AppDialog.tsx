// The generic dialog of 云文档: a full-screen toggle, 确定 / 取消, and no closing while the
// confirm action is still running.
import { useState, type ReactNode } from 'react';
import { Button, Modal, Tooltip, type ModalProps } from 'antd';
import FullscreenExitOutlined from '@ant-design/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/FullscreenOutlined';

export interface AppDialogProps extends Omit<ModalProps, 'onOk' | 'title'> {
  title?: ReactNode;
  /** may return a promise: the OK button then spins and the dialog cannot be closed */
  onOk?: () => unknown;
  /** show the full-screen toggle (default true) */
  fullscreenable?: boolean;
  defaultFullscreen?: boolean;
}

export function AppDialog({
  title,
  onOk,
  onCancel,
  fullscreenable = true,
  defaultFullscreen = false,
  okText = '确定',
  cancelText = '取消',
  confirmLoading,
  width = 520,
  styles,
  children,
  ...rest
}: AppDialogProps) {
  const [fullscreen, setFullscreen] = useState(defaultFullscreen);
  const [running, setRunning] = useState(false);
  const loading = Boolean(confirmLoading) || running;

  const handleOk = async () => {
    if (!onOk || loading) return;
    const out = onOk();
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      setRunning(true);
      try {
        await out;
      } finally {
        setRunning(false);
      }
    }
  };

  const header = (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingRight: 32 }}>
      <span>{title}</span>
      {fullscreenable ? (
        <Tooltip title={fullscreen ? '退出全屏' : '全屏'}>
          <Button
            type="text"
            size="small"
            aria-label={fullscreen ? '退出全屏' : '全屏'}
            icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            onClick={() => setFullscreen((f) => !f)}
          />
        </Tooltip>
      ) : null}
    </div>
  );

  // a dialog cannot be closed from its mask while its confirm action is loading
  const maskConfig = typeof rest.mask === 'object' ? rest.mask : {};
  return (
    <Modal
      {...rest}
      title={header}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={loading}
      onOk={handleOk}
      onCancel={(e) => {
        if (!loading) onCancel?.(e);
      }}
      closable={!loading}
      mask={{ ...maskConfig, closable: !loading && maskConfig.closable !== false }}
      keyboard={!loading}
      cancelButtonProps={{ ...rest.cancelButtonProps, disabled: loading }}
      width={fullscreen ? '100vw' : width}
      style={fullscreen ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : rest.style}
      styles={fullscreen ? { ...styles, body: { height: 'calc(100vh - 110px)', overflow: 'auto' } } : styles}
    >
      {children}
    </Modal>
  );
}
