// One ferry task of 云文档 in a drawer: its facts, what happened to it (a timeline), and its
// files with their SHA-256, real type, each check's result and the keywords found. The
// requester may cancel it while it is checked or approved; approvers and administrators may
// preview a file while it waits for approval; the approval itself is one link away.
import { useCallback, useState } from 'react';
import { Button, Descriptions, Drawer, Popconfirm, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { Link } from 'react-router-dom';
import {
  announceFerryChange,
  api,
  apiUrl,
  ferryApprovalPath,
  formatBytes,
  formatDateTime,
  isApiError,
  notify,
  useLoad,
  type FerryTaskDetail,
  type FerryTaskFile,
} from '@app/shared';
import { FileIcon } from '../FileIcon';
import { RowLink, useRowLinkStyle } from '../RowLink';
import { LoadError } from '../StatusSections';
import { FerryCheckTags, FerryKeywordHits } from './checks';
import { FERRY_TEXTS as T, FerryStatusCell, joinNames, orDash } from './common';

export interface FerryTaskDrawerProps {
  /** the task shown; null: closed */
  taskId: string | null;
  onClose: () => void;
  /** show 查看审批 (the approval's page); off where the approval pages do not exist (simple mode) */
  showApprovalLink?: boolean;
}

/** The start and end of a SHA-256, for a narrow column (the whole value is copied). */
export const shortHash = (hash: string) => (hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash);

const isNotFound = (e: unknown) => isApiError(e) && (e.code === 404 || e.status === 404 || String(e.code).startsWith('404'));

function TaskView({
  task,
  showApprovalLink,
  onCancelled,
}: {
  task: FerryTaskDetail;
  showApprovalLink: boolean;
  onCancelled: () => void;
}) {
  useRowLinkStyle();
  const [cancelling, setCancelling] = useState(false);

  const cancel = async () => {
    setCancelling(true);
    try {
      await api.cancelFerryTask(task.taskId);
    } catch {
      return; // the http client has shown why
    } finally {
      setCancelling(false);
    }
    notify.success(T.cancelled);
    announceFerryChange();
    onCancelled();
  };

  const preview = async (file: FerryTaskFile) => {
    try {
      const { url } = await api.previewFerryFile({ taskId: task.taskId, fileId: file.fileId });
      window.open(apiUrl(url), '_blank');
    } catch {
      /* the http client has shown why */
    }
  };

  const columns: TableColumnsType<FerryTaskFile> = [
    {
      title: '文件名',
      dataIndex: 'name',
      render: (name: string, f) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <FileIcon name={name} size={16} />
          <span>{name}</span>
          {f.blocked ? <Tag color="red">已拦截</Tag> : null}
        </span>
      ),
    },
    { title: '大小', dataIndex: 'size', width: 100, render: (size: number) => formatBytes(size) },
    {
      title: 'SHA-256',
      dataIndex: 'sha256',
      width: 220,
      render: (hash: string) =>
        hash ? (
          <Typography.Text code copyable={{ text: hash, tooltips: ['复制 SHA-256', '已复制'] }} title={hash} style={{ fontFamily: 'monospace' }}>
            {shortHash(hash)}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { title: '实际类型', dataIndex: 'detectedType', width: 90, render: (t: string) => t || '未知' },
    { title: '检查结果', key: 'checks', width: 220, render: (_: unknown, f) => <FerryCheckTags checks={f.checks} /> },
    { title: '敏感词', key: 'hits', width: 240, render: (_: unknown, f) => <FerryKeywordHits hits={f.keywordHits} /> },
  ];
  if (task.can.preview) {
    columns.push({
      title: '操作',
      key: 'actions',
      width: 70,
      fixed: 'end',
      render: (_: unknown, f) => (
        <RowLink aria-label={`预览 ${f.name}`} onClick={() => void preview(f)}>
          {T.preview}
        </RowLink>
      ),
    });
  }

  const approvalLink = showApprovalLink && task.instanceId !== '' ? <Link to={ferryApprovalPath(task.instanceId)}>{T.approval}</Link> : null;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      {task.can.cancel || approvalLink ? (
        <Space wrap role="toolbar" aria-label="摆渡操作">
          {task.can.cancel ? (
            <Popconfirm title={T.cancelConfirm} okText="确定" cancelText="再想想" onConfirm={() => cancel()}>
              <Button danger loading={cancelling}>
                {T.cancel}
              </Button>
            </Popconfirm>
          ) : null}
          {approvalLink}
        </Space>
      ) : null}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          { key: 'number', label: '编号', children: task.number },
          { key: 'status', label: '状态', children: <FerryStatusCell status={task.status} reason={task.statusReason} /> },
          { key: 'direction', label: '摆渡方向', children: `${task.fromZone} → ${task.targetZone}` },
          { key: 'requester', label: '申请人', children: task.requester.name },
          { key: 'recipients', label: '接收人', children: joinNames(task.recipients) },
          { key: 'files', label: '文件', children: `${task.fileCount} 个，${formatBytes(task.totalSize)}` },
          { key: 'createdAt', label: '提交时间', children: formatDateTime(task.createdAt) },
          { key: 'deliveredAt', label: '送达时间', children: orDash(formatDateTime(task.deliveredAt)) },
          { key: 'downloadedAt', label: '下载时间', children: orDash(formatDateTime(task.downloadedAt)) },
          { key: 'expiresAt', label: '过期时间', children: orDash(formatDateTime(task.expiresAt)) },
          { key: 'reason', label: '摆渡原因', span: 'filled', children: <span style={{ whiteSpace: 'pre-wrap' }}>{task.reason}</span> },
        ]}
      />
      <section aria-label="文件与检查">
        <Typography.Title level={5}>文件与检查</Typography.Title>
        <Table<FerryTaskFile>
          rowKey="fileId"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={task.files}
          scroll={{ x: 1000 }}
        />
      </section>
      <section aria-label="处理记录">
        <Typography.Title level={5}>处理记录</Typography.Title>
        {task.events.length ? (
          <Timeline
            items={task.events.map((e, i) => ({
              key: `${e.at}:${i}`,
              content: (
                <div data-testid="ferry-event">
                  <div>
                    {e.text}
                    {e.actorName ? <Typography.Text type="secondary">（{e.actorName}）</Typography.Text> : null}
                  </div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(e.at)}
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        ) : (
          <Typography.Text type="secondary">暂无记录</Typography.Text>
        )}
      </section>
    </div>
  );
}

function TaskLoader({ taskId, showApprovalLink }: { taskId: string; showApprovalLink: boolean }) {
  const load = useCallback(() => api.getFerryTask(taskId, { errorMode: 'none' }), [taskId]);
  const { state, reload } = useLoad<FerryTaskDetail>(load);
  const task = state.data && state.data.taskId === taskId ? state.data : undefined;
  if (task) return <TaskView task={task} showApprovalLink={showApprovalLink} onCancelled={reload} />;
  if (state.status === 'error') {
    return isNotFound(state.error) ? (
      <Typography.Text type="secondary">{T.notFound}</Typography.Text>
    ) : (
      <LoadError message={state.message} onRetry={reload} />
    );
  }
  return (
    <div style={{ padding: 48, textAlign: 'center' }}>
      <Spin />
    </div>
  );
}

/** The details of one ferry task (its files, checks and history) with what the caller may do. */
export function FerryTaskDrawer({ taskId, onClose, showApprovalLink = false }: FerryTaskDrawerProps) {
  return (
    <Drawer open={taskId !== null} title={T.details} size={880} onClose={onClose} destroyOnHidden>
      {taskId !== null ? <TaskLoader key={taskId} taskId={taskId} showApprovalLink={showApprovalLink} /> : null}
    </Drawer>
  );
}
