// 摆渡内容: the part of a 云文档 approval that a ferry task started (source 'ferry'). It shows the
// approver exactly what would leave the zone: where it goes, to whom and why, and for each file
// its name, size, SHA-256 (the bytes that cross), its real type by content, the result of every
// automatic check and the sensitive words found with the text around them. 预览 opens the
// submitted version while the approval is pending, when the server allows it.
import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Divider, Spin, Tag, Typography } from 'antd';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import {
  api,
  apiUrl,
  FERRY_STATUS_COLOR,
  FERRY_STATUS_TEXT,
  formatBytes,
  isApiError,
  useLoad,
  type FerryTaskDetail,
  type FerryTaskFile,
} from '@app/shared';
import { FerryCheckTags, FerryKeywordHits, FileIcon } from '@app/shared/ui';

export const FERRY_PANEL_TEXTS = {
  title: '摆渡内容',
  notFound: '摆渡任务不存在，或你没有查看它的权限',
  noFiles: '无文件',
  preview: '预览',
  unknownType: '未能识别',
  blocked: '已拦截',
  retry: '重试',
} as const;

const isNotFound = (e: unknown) => isApiError(e) && (e.status === 404 || String(e.code).startsWith('404'));

function FileEntry({ file, canPreview, opening, onPreview }: { file: FerryTaskFile; canPreview: boolean; opening: boolean; onPreview: () => void }) {
  return (
    <li aria-label={file.name} style={{ padding: '10px 0', borderBottom: '1px solid #f0f0f0', display: 'flex', flexDirection: 'column', gap: 6 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <FileIcon name={file.name} size={20} />
        <Typography.Text strong>{file.name}</Typography.Text>
        <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
        {file.blocked ? <Tag color="red">{FERRY_PANEL_TEXTS.blocked}</Tag> : null}
        {canPreview ? (
          <Button className="wf-no-print" size="small" icon={<EyeOutlined />} loading={opening} aria-label={`预览 ${file.name}`} onClick={onPreview}>
            {FERRY_PANEL_TEXTS.preview}
          </Button>
        ) : null}
      </div>
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'sha256',
            label: 'SHA-256',
            children: (
              <Typography.Text
                copyable={{ text: file.sha256, tooltips: ['复制', '已复制'] }}
                data-testid="sha256"
                style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', wordBreak: 'break-all', fontSize: 12 }}
              >
                {file.sha256}
              </Typography.Text>
            ),
          },
          {
            key: 'type',
            label: '实际类型',
            children: file.detectedType || <Typography.Text type="secondary">{FERRY_PANEL_TEXTS.unknownType}</Typography.Text>,
          },
          {
            key: 'checks',
            label: '检查结果',
            children: <FerryCheckTags checks={file.checks} label={`${file.name} 的检查结果`} />,
          },
          ...(file.keywordHits.length ? [{ key: 'keywords', label: '敏感词', children: <FerryKeywordHits hits={file.keywordHits} /> }] : []),
        ]}
      />
    </li>
  );
}

function FerryView({ task }: { task: FerryTaskDetail }) {
  const [opening, setOpening] = useState<string | null>(null);

  const preview = async (file: FerryTaskFile) => {
    setOpening(file.fileId);
    try {
      const { url } = await api.previewFerryFile({ taskId: task.taskId, fileId: file.fileId });
      window.open(apiUrl(url), '_blank', 'noopener,noreferrer');
    } catch {
      /* the http client has shown why */
    } finally {
      setOpening(null);
    }
  };

  return (
    <>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: 'number', label: '摆渡编号', children: task.number },
          { key: 'direction', label: '目标区域', children: `${task.targetZone}（由 ${task.fromZone} 发出）` },
          { key: 'recipients', label: '接收人', children: task.recipients.join('、') || '—' },
          {
            key: 'status',
            label: '摆渡状态',
            children: (
              <span>
                <Tag color={FERRY_STATUS_COLOR[task.status]}>{FERRY_STATUS_TEXT[task.status] ?? task.status}</Tag>
                {task.statusReason ? <Typography.Text type="secondary">{task.statusReason}</Typography.Text> : null}
              </span>
            ),
          },
          { key: 'size', label: '文件', children: `${task.fileCount} 个，共 ${formatBytes(task.totalSize)}` },
          { key: 'reason', label: '摆渡事由', children: <span style={{ whiteSpace: 'pre-wrap' }}>{task.reason || '—'}</span> },
        ]}
      />
      {task.files.length ? (
        <ul aria-label="摆渡文件" style={{ listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
          {task.files.map((f) => (
            <FileEntry key={f.fileId} file={f} canPreview={task.can.preview} opening={opening === f.fileId} onPreview={() => void preview(f)} />
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{FERRY_PANEL_TEXTS.noFiles}</Typography.Text>
      )}
    </>
  );
}

/** The ferry task behind an approval, loaded by its id (the instance's sourceId). */
export function FerryPanel({ taskId }: { taskId: string }) {
  const { state, reload } = useLoad(useCallback(() => api.getFerryTask(taskId, { errorMode: 'none' }), [taskId]));
  const task = state.data && state.data.taskId === taskId ? state.data : null;

  let body: ReactNode;
  if (task) body = <FerryView task={task} />;
  else if (state.status === 'error')
    body = (
      <Alert
        type={isNotFound(state.error) ? 'warning' : 'error'}
        showIcon
        title={isNotFound(state.error) ? FERRY_PANEL_TEXTS.notFound : state.message}
        action={
          isNotFound(state.error) ? undefined : (
            <Button size="small" className="wf-no-print" onClick={reload}>
              {FERRY_PANEL_TEXTS.retry}
            </Button>
          )
        }
      />
    );
  else body = <Spin size="small" />;

  return (
    <section aria-label={FERRY_PANEL_TEXTS.title}>
      <Divider titlePlacement="start" style={{ marginTop: 24 }}>
        {FERRY_PANEL_TEXTS.title}
      </Divider>
      {body}
    </section>
  );
}
