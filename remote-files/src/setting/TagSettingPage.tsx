// 标签管理 of 云文档 (/setting/tag): every tag the user sees (their own personal tags and the
// public ones) with its kind and how many items carry it; 新建标签, 编辑 and 删除. Everyone
// manages their own tags; only a tag admin (UserInfo.isTagAdmin) makes, edits or deletes
// public ones (the server refuses the others, so they are not offered).
import { useCallback, useState } from 'react';
import { App as AntApp, Button, Space, Table, Tag as AntTag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { api, useLoad, useUserInfo, type Tag } from '@app/shared';
import { LoadError, RemotePage, RowLink, SectionEmpty, useRowLinkStyle } from '@app/shared/ui';
import { TagChip } from '../folder/ItemBadges';
import { TagDialog, TAG_DIALOG_TEXTS } from '../tag/TagDialog';
import { settingNav } from './settingNav';
import { confirmDelete } from '../common/listParts';

export const TAG_SETTING_TEXTS = {
  title: '标签管理',
  note: '个人标签仅自己可见；公共标签对所有人可见，由标签管理员维护。',
  empty: '还没有标签',
  emptyNote: '点击“新建标签”创建第一个标签',
  deleteTitle: '删除标签',
  deleteContent: '删除标签后，所有文件上的该标签都会被移除。',
  deleted: '删除成功',
} as const;

export function TagSettingPage({ title = TAG_SETTING_TEXTS.title }: { title?: string }) {
  useRowLinkStyle();
  const { modal } = AntApp.useApp();
  const isTagAdmin = !!useUserInfo()?.isTagAdmin;
  const { state, reload } = useLoad(useCallback(() => api.getTags(), []));
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const tags = state.data ?? [];
  // personal tags first, then the public ones (each as the server orders them)
  const rows = [...tags.filter((t) => !t.isPublic), ...tags.filter((t) => t.isPublic)];

  /** the user may change this tag: the server says so, and a public one needs a tag admin */
  const editable = (t: Tag) => t.editable && (!t.isPublic || isTagAdmin);

  const remove = (t: Tag) =>
    confirmDelete(modal, {
      title: TAG_SETTING_TEXTS.deleteTitle,
      what: '标签',
      name: t.name,
      note: TAG_SETTING_TEXTS.deleteContent,
      remove: () => api.deleteTag(t.id),
      done: TAG_SETTING_TEXTS.deleted,
      after: reload,
    });

  const columns: TableColumnsType<Tag> = [
    { key: 'name', title: '标签', render: (_: unknown, t) => <TagChip tag={t} /> },
    {
      key: 'kind',
      title: '类型',
      width: 120,
      render: (_: unknown, t) => (t.isPublic ? <AntTag color="blue">公共</AntTag> : <AntTag>个人</AntTag>),
    },
    { key: 'count', dataIndex: 'count', title: '使用次数', width: 120 },
    {
      key: 'actions',
      title: '操作',
      width: 140,
      render: (_: unknown, t) =>
        editable(t) ? (
          <Space size={12}>
            <RowLink aria-label={`编辑 ${t.name}`} onClick={() => setEditing(t)}>
              编辑
            </RowLink>
            <RowLink aria-label={`删除 ${t.name}`} onClick={() => remove(t)}>
              删除
            </RowLink>
          </Space>
        ) : (
          <Typography.Text type="secondary" title="只有标签管理员可以修改公共标签">
            —
          </Typography.Text>
        ),
    },
  ];

  return (
    <RemotePage
      title={title}
      nav={settingNav}
      extra={
        <>
          <Button icon={<ReloadOutlined />} onClick={reload}>
            刷新
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {TAG_DIALOG_TEXTS.create}
          </Button>
        </>
      }
    >
      {state.status === 'error' && !state.data ? (
        <LoadError message={state.message} onRetry={reload} />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {TAG_SETTING_TEXTS.note}
          </Typography.Paragraph>
          <Table<Tag>
            aria-label="标签"
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={state.status === 'loading'}
            pagination={false}
            locale={{
              emptyText: state.status === 'loading' ? <span /> : <SectionEmpty description={TAG_SETTING_TEXTS.empty} note={TAG_SETTING_TEXTS.emptyNote} />,
            }}
          />
        </>
      )}
      <TagDialog
        tag={editing}
        isTagAdmin={isTagAdmin}
        tags={tags}
        onCancel={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          reload();
        }}
      />
    </RemotePage>
  );
}
