// The bar above a preview: the file's icon, name and size, 上一个/下一个 through the files listed
// next to it, and 下载 when the viewer may download it. On a phone: one compact row of icons.
import type { ReactNode } from 'react';
import { Button, Tooltip, Typography } from 'antd';
import { DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { formatBytes, formatDateTime } from '@app/shared';
import { FileIcon } from '@app/shared/ui';

export const PREVIEW_BAR_TEXTS = {
  prev: '上一个',
  next: '下一个',
  download: '下载',
  position: (at: number, total: number) => `${at} / ${total}`,
} as const;

export interface PreviewBarProps {
  name: string;
  extension: string;
  size?: number;
  updatedAt?: string;
  /** where the file is in the list it was opened from */
  position?: { at: number; total: number } | null;
  onPrev?: (() => void) | null;
  onNext?: (() => void) | null;
  /** null: the viewer may only preview the file (no 下载 at all) */
  onDownload?: (() => void) | null;
  mobile?: boolean;
}

export function PreviewBar({ name, extension, size, updatedAt, position, onPrev, onNext, onDownload, mobile = false }: PreviewBarProps) {
  const iconButton = (label: string, icon: ReactNode, onClick: (() => void) | null | undefined) => (
    <Tooltip title={mobile ? undefined : label}>
      <Button type="text" aria-label={label} icon={icon} disabled={!onClick} onClick={() => onClick?.()} />
    </Tooltip>
  );
  return (
    <header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: mobile ? 4 : 12,
        height: mobile ? 44 : 52,
        padding: mobile ? '0 4px 0 10px' : '0 16px',
        background: '#fff',
        borderBottom: '1px solid #f0f0f0',
        flex: 'none',
        minWidth: 0,
      }}
    >
      <FileIcon extension={extension} name={name} size={mobile ? 20 : 24} />
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 8, minWidth: 0, flex: 1 }}>
        <Typography.Text strong ellipsis={{ tooltip: mobile ? undefined : name }} style={{ minWidth: 0, fontSize: mobile ? 14 : 15 }} data-file-name="">
          {name}
        </Typography.Text>
        {size !== undefined ? (
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: mobile ? 12 : 13 }} data-file-size="">
            {formatBytes(size)}
            {!mobile && updatedAt ? ` · ${formatDateTime(updatedAt)}` : ''}
          </Typography.Text>
        ) : null}
      </div>
      {position ? (
        <div style={{ display: 'flex', alignItems: 'center', gap: mobile ? 0 : 4 }}>
          {mobile ? (
            iconButton(PREVIEW_BAR_TEXTS.prev, <LeftOutlined />, onPrev)
          ) : (
            <Button icon={<LeftOutlined />} disabled={!onPrev} onClick={() => onPrev?.()}>
              {PREVIEW_BAR_TEXTS.prev}
            </Button>
          )}
          <Typography.Text type="secondary" style={{ minWidth: mobile ? 36 : 52, textAlign: 'center', fontSize: mobile ? 12 : 13 }} data-position="">
            {PREVIEW_BAR_TEXTS.position(position.at, position.total)}
          </Typography.Text>
          {mobile ? (
            iconButton(PREVIEW_BAR_TEXTS.next, <RightOutlined />, onNext)
          ) : (
            <Button icon={<RightOutlined />} iconPlacement="end" disabled={!onNext} onClick={() => onNext?.()}>
              {PREVIEW_BAR_TEXTS.next}
            </Button>
          )}
        </div>
      ) : null}
      {onDownload ? (
        mobile ? (
          iconButton(PREVIEW_BAR_TEXTS.download, <DownloadOutlined />, onDownload)
        ) : (
          <Button type="primary" icon={<DownloadOutlined />} onClick={onDownload}>
            {PREVIEW_BAR_TEXTS.download}
          </Button>
        )
      ) : null}
    </header>
  );
}
