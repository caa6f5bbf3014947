// 流程管理 (/workflow/list/definitions), for flow admins only (others get 页面不存在): every
// definition with its category and version, a switch that enables or disables it, 编辑 and
// 删除; 新建流程 and 编辑 open the definition drawer.
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { App as AntApp, Button, Space, Switch, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useNavigate } from 'react-router-dom';
import { api, formatDateTime, notify, useUserInfo, type WorkflowDefinition, useLoad } from '@app/shared';
import { LoadError, NotFoundSection, RemotePage, RowLink, SectionEmpty, useRowLinkStyle } from '@app/shared/ui';
import { MODE_LABELS, paths } from '../texts';
import { bodyOf, DEFINITION_TEXTS, DefinitionDrawer } from './DefinitionDrawer';

export const DEFINITIONS_TEXTS = {
  title: '流程管理',
  empty: '还没有流程',
  emptyNote: '点击“新建流程”创建第一个审批流程',
  back: '返回流程列表',
  deleteTitle: '删除流程',
  deleted: '流程已删除',
  enabled: '已启用',
  disabled: '已停用',
} as const;

export function DefinitionsPage({ nav }: { nav: ReactNode }) {
  const user = useUserInfo();
  if (!user?.isFlowAdmin) return <NotFoundSection />;
  return <DefinitionsAdmin nav={nav} />;
}

function DefinitionsAdmin({ nav }: { nav: ReactNode }) {
  useRowLinkStyle();
  const navigate = useNavigate();
  const { modal } = AntApp.useApp();
  const { state, reload, setData } = useLoad(useCallback(() => api.getWorkflowDefinitions(), []));
  const [editing, setEditing] = useState<WorkflowDefinition | 'new' | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);
  const list = state.data ?? [];
  const categories = useMemo(() => [...new Set(list.map((d) => d.category).filter(Boolean))], [list]);

  const replace = (saved: WorkflowDefinition) =>
    setData(list.some((d) => d.id === saved.id) ? list.map((d) => (d.id === saved.id ? saved : d)) : [...list, saved]);

  const toggle = async (d: WorkflowDefinition, enabled: boolean) => {
    setToggling(d.id);
    try {
      replace(await api.updateWorkflowDefinition(d.id, { ...bodyOf(d), enabled }));
      notify.success(enabled ? DEFINITIONS_TEXTS.enabled : DEFINITIONS_TEXTS.disabled);
    } catch {
      /* the http client has shown why */
    } finally {
      setToggling(null);
    }
  };

  const remove = (d: WorkflowDefinition) =>
    modal.confirm({
      title: DEFINITIONS_TEXTS.deleteTitle,
      content: `确定删除「${d.name}」吗？已经发起的审批不受影响，但不能再发起这个流程。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await api.deleteWorkflowDefinition(d.id);
        notify.success(DEFINITIONS_TEXTS.deleted);
        reload();
      },
    });

  const columns: TableColumnsType<WorkflowDefinition> = [
    {
      title: '名称',
      dataIndex: 'name',
      render: (name: string, d) => (
        <div>
          <div>{name}</div>
          {d.description ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.description}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    { title: '分类', dataIndex: 'category', width: 120, render: (c: string) => c || <Typography.Text type="secondary">—</Typography.Text> },
    {
      title: '审批步骤',
      key: 'steps',
      width: 240,
      render: (_: unknown, d) => d.steps.map((s) => `${s.name}（${MODE_LABELS[s.mode]}）`).join(' → '),
    },
    { title: '版本', dataIndex: 'version', width: 80, render: (v: number) => `第 ${v} 版` },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 80,
      render: (enabled: boolean, d) => (
        <Switch size="small" checked={enabled} loading={toggling === d.id} aria-label={`启用 ${d.name}`} onChange={(on) => void toggle(d, on)} />
      ),
    },
    { title: '更新时间', dataIndex: 'updatedAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_: unknown, d) => (
        <Space size={12}>
          <RowLink aria-label={`编辑 ${d.name}`} onClick={() => setEditing(d)}>
            编辑
          </RowLink>
          <RowLink aria-label={`删除 ${d.name}`} onClick={() => remove(d)}>
            删除
          </RowLink>
        </Space>
      ),
    },
  ];

  return (
    <RemotePage
      title={DEFINITIONS_TEXTS.title}
      nav={nav}
      extra={
        <>
          <Button onClick={() => navigate(paths.list())}>{DEFINITIONS_TEXTS.back}</Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {DEFINITION_TEXTS.create}
          </Button>
        </>
      }
    >
      {state.status === 'error' && !state.data ? (
        <LoadError message={state.message} onRetry={reload} />
      ) : (
        <Table<WorkflowDefinition>
          rowKey="id"
          size="middle"
          loading={state.status === 'loading'}
          columns={columns}
          dataSource={list}
          pagination={false}
          locale={{ emptyText: <SectionEmpty description={DEFINITIONS_TEXTS.empty} note={DEFINITIONS_TEXTS.emptyNote} /> }}
          scroll={{ x: 1000 }}
        />
      )}
      {editing ? (
        <DefinitionDrawer
          key={editing === 'new' ? 'new' : editing.id}
          definition={editing === 'new' ? null : editing}
          categories={categories}
          onClose={() => setEditing(null)}
          onSaved={replace}
        />
      ) : null}
    </RemotePage>
  );
}
