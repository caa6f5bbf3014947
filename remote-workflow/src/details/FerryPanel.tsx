// 摆渡内容: the part of a 云文档 approval that a ferry task started (source 'ferry'). It shows the
// approver exactly what would leave the zone: where it goes, to whom and why, and for each file
// its name, size, SHA-256 (the bytes that cross), its real type by content, the result of every
// automatic check and the sensitive words found with the text around them. 预览 opens the
// submitted version while the approval is pending, when the server allows it.
import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Divider, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import {
  api,
  apiUrl,
  FERRY_CHECK_TEXT,
  FERRY_STATUS_COLOR,
  FERRY_STATUS_TEXT,
  formatBytes,
  isApiError,
  useLoad,
  type FerryCheckResult,
  type FerryKeywordHit,
  type FerryTaskDetail,
  type FerryTaskFile,
} from '@app/shared';
import { FileIcon } from '@app/shared/ui';

export const FERRY_PANEL_TEXTS = {
  title: '摆渡内容',
  notFound: '摆渡任务不存在，或你没有查看它的权限',
  noFiles: '无文件',
  preview: '预览',
  unknownType: '未能识别',
  blocked: '已拦截',
  retry: '重试',
} as const;

export const CHECK_RESULT_TEXT: Record<FerryCheckResult['result'], string> = { passed: '通过', failed: '未通过', skipped: '已跳过' };
export const CHECK_RESULT_COLOR: Record<FerryCheckResult['result'], string> = { passed: 'green', failed: 'red', skipped: 'default' };

const isNotFound = (e: unknown) => isApiError(e) && (e.status === 404 || String(e.code).startsWith('404'));

/** `text` with every occurrence of `keyword` (any case) marked. */
export function highlight(text: string, keyword: string): ReactNode[] {
  if (!keyword) return [text];
  const parts: ReactNode[] = [];
  const haystack = text.toLowerCase();
  const needle = keyword.toLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} style={{ background: '#ffe58f', padding: '0 1px', borderRadius: 2 }}>
        {text.slice(at, at + keyword.length)}
      </mark>,
    );
    from = at + keyword.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

function CheckTag({ check }: { check: FerryCheckResult }) {
  const name = FERRY_CHECK_TEXT[check.name] ?? check.name;
  const result = CHECK_RESULT_TEXT[check.result] ?? check.result;
  return (
    <Tooltip title={check.message || result}>
      <Tag color={CHECK_RESULT_COLOR[check.result] ?? 'default'} data-result={check.result} aria-label={`${name}：${result}${check.message ? `。${check.message}` : ''}`}>
        {name} {result}
      </Tag>
    </Tooltip>
  );
}

function KeywordHits({ hits }: { hits: FerryKeywordHit[] }) {
  return (
    <ul aria-label="敏感词命中" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 }}>
      {hits.map((h) => (
        <li key={h.keyword} data-testid="keyword-hit" style={{ display: 'flex', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' }}>
          <Tag color="orange" style={{ marginInlineEnd: 0 }}>
            {h.keyword} ×{h.count}
          </Tag>
          {h.context ? (
            <span style={{ color: '#595959', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>“{highlight(h.context, h.keyword)}”</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

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
            children: file.checks.length ? (
              <Space size={[0, 4]} wrap aria-label={`${file.name} 的检查结果`}>
                {file.checks.map((c) => (
                  <CheckTag key={c.name} check={c} />
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
          },
          ...(file.keywordHits.length ? [{ key: 'keywords', label: '敏感词', children: <KeywordHits hits={file.keywordHits} /> }] : []),
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
