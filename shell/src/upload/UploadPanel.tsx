// The global upload panel (spec sections 2, 4 and 9): fixed at the bottom right, 398 px high
// unfolded and 68 px folded; a header with the status icon, the status text, pause-all /
// continue / retry-all, fold and close; then one 50 px row per file in a windowed list.
import { memo, useCallback, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { App, Button, Tooltip, Typography, theme } from 'antd';
import CaretRightOutlined from '@ant-design/icons/CaretRightOutlined';
import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons/CloseCircleFilled';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import CloudUploadOutlined from '@ant-design/icons/CloudUploadOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownOutlined from '@ant-design/icons/DownOutlined';
import FileSearchOutlined from '@ant-design/icons/FileSearchOutlined';
import FolderOpenOutlined from '@ant-design/icons/FolderOpenOutlined';
import PauseCircleFilled from '@ant-design/icons/PauseCircleFilled';
import PauseOutlined from '@ant-design/icons/PauseOutlined';
import RedoOutlined from '@ant-design/icons/RedoOutlined';
import UpOutlined from '@ant-design/icons/UpOutlined';
import {
  FILE_ICON_SIZE,
  formatBytes,
  PanelStatus,
  PROGRESS_ROW_HEIGHT,
  resolveFileJump,
  UPLOAD_PANEL_HEIGHT_COLLAPSED,
  UPLOAD_PANEL_HEIGHT_EXPANDED,
  UPLOAD_PANEL_TEXT,
  UPLOAD_STATUS_TEXT,
  UPLOAD_TEXT,
  UploadStatus,
  useRoles,
  type UploadItem,
} from '@app/shared';
import { FileIcon } from '@app/shared/ui';
import type { UploadController } from './controller';
import type { UploadSnapshot } from './engine';
import { VirtualList } from './VirtualList';

export const UPLOAD_PANEL_WIDTH = 520;
const HEADER_HEIGHT = UPLOAD_PANEL_HEIGHT_COLLAPSED;
const LIST_HEIGHT = UPLOAD_PANEL_HEIGHT_EXPANDED - HEADER_HEIGHT;

const STATUS_ICON: Record<string, ReactNode> = {
  // a still icon: a spinning one redraws the page 60 times a second for the whole upload, and
  // on a machine without a GPU that takes a core's time from the hashing and the transfer
  [PanelStatus.Uploading]: <CloudUploadOutlined style={{ color: '#1f6feb' }} />,
  [PanelStatus.Paused]: <PauseCircleFilled style={{ color: '#faad14' }} />,
  [PanelStatus.Error]: <CloseCircleFilled style={{ color: '#ff4d4f' }} />,
  [PanelStatus.Success]: <CheckCircleFilled style={{ color: '#52c41a' }} />,
};

/** What a row says under its name. */
export function rowStatusText(item: UploadItem): string {
  if (item.needsFile) return item.msg || UPLOAD_TEXT.repick;
  switch (item.status) {
    case UploadStatus.Error:
      return item.msg || UPLOAD_STATUS_TEXT.error;
    case UploadStatus.Uploading:
      if (item.isMD5Compute) return `${UPLOAD_TEXT.hashing} ${item.md5verify}%`;
      return `${UPLOAD_STATUS_TEXT.uploading} ${item.mathPro}%${item.speed > 0 ? ` · ${formatBytes(item.speed)}/s` : ''}`;
    case UploadStatus.Success:
    case UploadStatus.Complete:
      return item.msg || UPLOAD_STATUS_TEXT.success;
    case UploadStatus.Paused:
      return item.msg || UPLOAD_STATUS_TEXT.paused;
    default:
      return item.msg || UPLOAD_STATUS_TEXT.waiting;
  }
}

/** The folder screen of a finished upload (null when it cannot be opened from here). */
export function folderRouteOf(item: UploadItem, access?: Parameters<typeof resolveFileJump>[1]): string | null {
  if (item.shareId || !item.idPath) return null;
  const done = item.status === UploadStatus.Success || item.status === UploadStatus.Complete;
  if (!done) return null;
  // a file inside a dropped folder lives in a folder made by the server: open the target folder
  const jump =
    item.fileId && !item.isFolder && item.msg !== UPLOAD_TEXT.skipped
      ? resolveFileJump(`${item.idPath}/${item.fileId}`, access, 'file')
      : resolveFileJump(item.idPath, access, 'folder');
  return jump.ok ? jump.path : null;
}

interface RowProps {
  item: UploadItem;
  controller: UploadController;
  onOpenFolder: (item: UploadItem) => void;
  onRepick: (item: UploadItem) => void;
  canOpenFolder: boolean;
}

function Action({ label, icon, onClick, danger, testId }: { label: string; icon: ReactNode; onClick: () => void; danger?: boolean; testId: string }) {
  return (
    <Tooltip title={label}>
      <Button type="text" size="small" data-testid={testId} aria-label={label} icon={icon} danger={danger} onClick={onClick} />
    </Tooltip>
  );
}

/**
 * A 2 px progress line that moves without animation. antd's Progress eases every change over
 * 0.3 s and shimmers while active: with progress shown 4 times a second it would be animating,
 * and the page redrawing, for the whole upload, taking CPU time from the hashing and the transfer.
 */
function ProgressLine({ percent, color }: { percent: number; color: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div role="progressbar" aria-valuenow={value} aria-valuemin={0} aria-valuemax={100} style={{ height: 2, marginTop: 2, background: 'rgba(0, 0, 0, 0.06)', borderRadius: 1 }}>
      <div style={{ width: `${value}%`, height: 2, background: color, borderRadius: 1 }} />
    </div>
  );
}

const UploadRow = memo(function UploadRow({ item, controller, onOpenFolder, onRepick, canOpenFolder }: RowProps) {
  const done = item.status === UploadStatus.Success || item.status === UploadStatus.Complete;
  const percent = done ? 100 : item.status === UploadStatus.Uploading && item.isMD5Compute ? item.md5verify : item.mathPro;
  const { token } = theme.useToken();
  const statusColor = item.status === UploadStatus.Error ? '#ff4d4f' : done ? '#52c41a' : '#8f959e';
  return (
    <div
      data-testid="upload-row"
      data-status={item.status}
      data-needs-file={item.needsFile ? 'true' : undefined}
      style={{ display: 'flex', alignItems: 'center', gap: 10, height: PROGRESS_ROW_HEIGHT, padding: '0 12px', borderBottom: '1px solid #f2f3f5' }}
    >
      <FileIcon name={item.fileName} size={FILE_ICON_SIZE} />
      <div style={{ flex: 1, minWidth: 0, lineHeight: '18px' }}>
        <Typography.Text data-testid="upload-row-name" ellipsis title={item.relativePath} style={{ display: 'block', fontSize: 13 }}>
          {item.fileName}
        </Typography.Text>
        <div style={{ display: 'flex', gap: 8, fontSize: 12, color: '#8f959e', whiteSpace: 'nowrap', overflow: 'hidden' }}>
          <span>{formatBytes(item.size)}</span>
          <span data-testid="upload-row-status" title={rowStatusText(item)} style={{ color: statusColor, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {rowStatusText(item)}
          </span>
        </div>
        <ProgressLine percent={percent} color={item.status === UploadStatus.Error ? token.colorError : done ? token.colorSuccess : token.colorPrimary} />
      </div>
      <div style={{ display: 'flex', flex: 'none' }}>
        {item.status === UploadStatus.Uploading || item.status === UploadStatus.Waiting ? (
          <Action testId="upload-row-pause" label={UPLOAD_PANEL_TEXT.pause} icon={<PauseOutlined />} onClick={() => controller.pause(item.id)} />
        ) : null}
        {item.status === UploadStatus.Paused && item.needsFile ? (
          <Action testId="upload-row-repick" label={UPLOAD_TEXT.repickAction} icon={<FileSearchOutlined />} onClick={() => onRepick(item)} />
        ) : null}
        {item.status === UploadStatus.Paused && !item.needsFile ? (
          <Action testId="upload-row-resume" label={UPLOAD_PANEL_TEXT.resume} icon={<CaretRightOutlined />} onClick={() => controller.resume(item.id)} />
        ) : null}
        {item.status === UploadStatus.Error && !item.refused ? (
          <Action testId="upload-row-retry" label={UPLOAD_PANEL_TEXT.retry} icon={<RedoOutlined />} onClick={() => controller.retry(item.id)} />
        ) : null}
        {done && canOpenFolder ? (
          <Action testId="upload-row-open-folder" label={UPLOAD_PANEL_TEXT.openFolder} icon={<FolderOpenOutlined />} onClick={() => onOpenFolder(item)} />
        ) : null}
        {done || item.refused ? (
          <Action testId="upload-row-remove" label={UPLOAD_PANEL_TEXT.remove} icon={<DeleteOutlined />} onClick={() => controller.cancel(item.id)} />
        ) : (
          <Action testId="upload-row-cancel" label={UPLOAD_PANEL_TEXT.cancel} icon={<CloseOutlined />} danger onClick={() => controller.cancel(item.id)} />
        )}
      </div>
    </div>
  );
});

export interface UploadPanelProps {
  snapshot: UploadSnapshot;
  controller: UploadController;
  expanded: boolean;
  onToggle: () => void;
}

export function UploadPanel({ snapshot, controller, expanded, onToggle }: UploadPanelProps) {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const roles = useRoles();
  const picker = useRef<HTMLInputElement>(null);
  const repicking = useRef<UploadItem | null>(null);
  const { items, summary } = snapshot;
  const status = summary.status;
  const anyPaused = items.some((i) => i.status === UploadStatus.Paused && !i.needsFile);
  const anyRetryable = items.some((i) => i.status === UploadStatus.Error && !i.refused);

  const close = () => {
    void controller.close(
      () =>
        new Promise<boolean>((resolve) => {
          modal.confirm({
            title: UPLOAD_TEXT.closeTitle,
            content: UPLOAD_TEXT.closeContent,
            okText: UPLOAD_TEXT.closeCancel,
            okButtonProps: { danger: true },
            cancelText: UPLOAD_TEXT.closeContinue,
            onOk: () => resolve(true),
            onCancel: () => resolve(false),
          });
        }),
    );
  };

  const openFolder = useCallback(
    (item: UploadItem) => {
      const to = folderRouteOf(item, roles);
      if (to) navigate(to);
    },
    [navigate, roles],
  );

  const repick = useCallback((item: UploadItem) => {
    repicking.current = item;
    const input = picker.current;
    if (!input) return;
    input.value = '';
    input.click();
  }, []);

  const onPicked = (files: FileList | null) => {
    const item = repicking.current;
    repicking.current = null;
    const file = files?.[0];
    if (!item || !file) return;
    if (!controller.reattach(item.id, file)) void message.error(UPLOAD_TEXT.repickMismatch);
  };

  return (
    <section
      data-testid="upload-panel"
      data-status={status}
      data-expanded={expanded ? 'true' : 'false'}
      aria-label={UPLOAD_PANEL_TEXT.title}
      style={{
        position: 'fixed',
        right: 24,
        bottom: 24,
        zIndex: 999,
        width: UPLOAD_PANEL_WIDTH,
        maxWidth: 'calc(100vw - 48px)',
        height: expanded ? UPLOAD_PANEL_HEIGHT_EXPANDED : UPLOAD_PANEL_HEIGHT_COLLAPSED,
        background: '#fff',
        borderRadius: 8,
        boxShadow: '0 6px 24px rgba(15, 23, 42, 0.16)',
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <header
        style={{
          height: HEADER_HEIGHT,
          flex: 'none',
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          padding: '0 12px 0 16px',
          borderBottom: expanded ? '1px solid #f0f0f0' : undefined,
        }}
      >
        <span data-testid="upload-panel-icon" style={{ fontSize: 20, lineHeight: 0 }}>
          {STATUS_ICON[status] ?? null}
        </span>
        <Typography.Text strong data-testid="upload-panel-status" style={{ flex: 1, minWidth: 0 }} ellipsis>
          {summary.text}
        </Typography.Text>
        {status === PanelStatus.Uploading ? (
          <Button size="small" data-testid="upload-pause-all" onClick={() => controller.pauseAll()}>
            {UPLOAD_PANEL_TEXT.pauseAll}
          </Button>
        ) : null}
        {anyPaused ? (
          <Button size="small" type="primary" data-testid="upload-continue-all" onClick={() => controller.resumeAll()}>
            {UPLOAD_PANEL_TEXT.continueAll}
          </Button>
        ) : null}
        {anyRetryable ? (
          <Button size="small" data-testid="upload-retry-all" onClick={() => controller.retryAll()}>
            {UPLOAD_PANEL_TEXT.retryAll}
          </Button>
        ) : null}
        <Button
          type="text"
          size="small"
          data-testid="upload-toggle"
          aria-label={expanded ? UPLOAD_PANEL_TEXT.collapse : UPLOAD_PANEL_TEXT.expand}
          icon={expanded ? <DownOutlined /> : <UpOutlined />}
          onClick={onToggle}
        />
        <Button type="text" size="small" data-testid="upload-close" aria-label={UPLOAD_PANEL_TEXT.close} icon={<CloseOutlined />} onClick={close} />
      </header>
      {expanded ? (
        <VirtualList
          data-testid="upload-list"
          aria-label={UPLOAD_PANEL_TEXT.title}
          items={items}
          height={LIST_HEIGHT}
          rowHeight={PROGRESS_ROW_HEIGHT}
          itemKey={(item) => item.id}
          renderRow={(item) => (
            <UploadRow
              item={item}
              controller={controller}
              onOpenFolder={openFolder}
              onRepick={repick}
              canOpenFolder={folderRouteOf(item, roles) !== null}
            />
          )}
        />
      ) : null}
      <input
        ref={picker}
        type="file"
        data-testid="upload-repick-input"
        style={{ display: 'none' }}
        onChange={(e) => onPicked(e.currentTarget.files)}
      />
    </section>
  );
}
