// 标签 of 云文档 (/file/tag): the user's tags on the left (个人标签 and 公共标签, each with its
// colour and count), the chosen tag's items on the right, paged on the server, with
// 打开所在位置 and 移除标签 for one row or the selection. The chosen tag is kept in ?tagId=
// (without one, the first tag is shown).
import { useCallback, useEffect, useState } from 'react';
import { Button, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ReloadOutlined, SettingOutlined, TagOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { api, formatDateTime, notify, useLoad, type Item, type Paged, type Tag } from '@app/shared';
import { LoadError, RemotePage, RowLink, SectionEmpty, useRowLinkStyle } from '@app/shared/ui';
import { SideList, type SideGroup } from '../common/SideList';
import { itemColumns, useOpenLocation, usePreviewFile } from '../common/itemCells';
import { pagingOf, selectionOf } from '../common/listParts';
import { TagChip } from '../folder/ItemBadges';
import { TAG_SETTING_PATH } from './TagFilesDialog';

export const TAG_PAGE_SIZE = 50;
/** The query parameter naming the tag shown. */
export const TAG_PARAM = 'tagId';

export const TAG_PAGE_TEXTS = {
  noTags: '还没有标签',
  noTagsNote: '在文件列表中选择“标签”为文件（夹）添加标签，或前往标签管理新建标签',
  empty: '该标签下暂无文件（夹）',
  remove: '移除标签',
  removed: '已移除标签',
  manage: '标签管理',
} as const;

const NO_FILES: Paged<Item> = { data: [], total: 0 };

/** A tag's colour as a dot before its name. */
export function TagDot({ color }: { color: string }) {
  return <span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', background: color, flexShrink: 0 }} />;
}

export function TagPage({ title = '标签' }: { title?: string }) {
  useRowLinkStyle();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const openLocation = useOpenLocation();
  const tags = useLoad(useCallback(() => api.getTags(), []));
  const list = tags.state.data ?? [];
  const wanted = params.get(TAG_PARAM);
  // the tag in the URL (its items load along with the tags), else the first one; a tag that is
  // gone (deleted, or another user's personal tag) gives way to the first one
  const tagId = wanted && (!tags.state.data || list.some((t) => t.id === wanted)) ? wanted : list[0]?.id;
  const current = list.find((t) => t.id === tagId);

  const [paging, setPaging] = useState({ tagId, page: 1 });
  // another tag starts from its first page
  const page = paging.tagId === tagId ? paging.page : 1;
  const setPage = (p: number) => setPaging({ tagId, page: p });
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const files = useLoad(
    useCallback(() => (tagId ? api.getTagFiles(tagId, { page, pageSize: TAG_PAGE_SIZE }) : Promise.resolve(NO_FILES)), [tagId, page]),
  );
  const data = files.state.data;
  const rows = data?.data ?? [];
  const selected = rows.filter((r) => selectedKeys.includes(r.id));

  useEffect(() => {
    setSelectedKeys([]);
    // a page emptied by the last 移除标签: back one
    if (data && !data.data.length && page > 1 && data.total > 0) setPage(page - 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);

  const choose = (id: string) => {
    const next = new URLSearchParams(params);
    next.set(TAG_PARAM, id);
    setParams(next);
    setSelectedKeys([]);
  };

  const reloadAll = () => {
    tags.reload();
    files.reload();
  };

  const removeTag = async (items: Item[]) => {
    if (!tagId || !items.length) return;
    setBusy(true);
    try {
      await api.removeTagsFromFiles({ fileIds: items.map((i) => i.id), tagIds: [tagId] });
    } catch {
      return; // the http client has shown the server's message
    } finally {
      setBusy(false);
    }
    notify.success(TAG_PAGE_TEXTS.removed);
    reloadAll();
  };

  const groups: SideGroup[] = [
    { label: '个人标签', entries: list.filter((t) => !t.isPublic) },
    { label: '公共标签', entries: list.filter((t) => t.isPublic) },
  ]
    .filter((g) => g.entries.length)
    .map((g) => ({
      label: g.label,
      entries: g.entries.map((t: Tag) => ({ key: t.id, name: t.name, count: t.count, icon: <TagDot color={t.color} /> })),
    }));

  const preview = usePreviewFile(rows);
  const columns: TableColumnsType<Item> = [
    ...itemColumns<Item>(openLocation, preview),
    { key: 'updatedAt', dataIndex: 'updatedAt', title: '修改时间', width: 170, render: (v: string) => formatDateTime(v) },
    {
      key: 'actions',
      title: '操作',
      width: 200,
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 12, rowGap: 4 }}>
          <RowLink aria-label={`打开所在位置 ${item.name}`} onClick={() => openLocation(item)}>
            打开所在位置
          </RowLink>
          <RowLink aria-label={`移除标签 ${item.name}`} onClick={() => void removeTag([item])}>
            {TAG_PAGE_TEXTS.remove}
          </RowLink>
        </span>
      ),
    },
  ];

  const toolbar = (
    <>
      {selected.length ? (
        <>
          <Typography.Text type="secondary">已选 {selected.length} 项</Typography.Text>
          <Button icon={<TagOutlined />} loading={busy} onClick={() => void removeTag(selected)}>
            {TAG_PAGE_TEXTS.remove}
          </Button>
        </>
      ) : null}
      <Button icon={<SettingOutlined />} onClick={() => navigate(TAG_SETTING_PATH)}>
        {TAG_PAGE_TEXTS.manage}
      </Button>
      <Button icon={<ReloadOutlined />} onClick={reloadAll}>
        刷新
      </Button>
    </>
  );

  if (tags.state.status === 'error' && !tags.state.data) {
    return (
      <RemotePage title={title}>
        <LoadError message={tags.state.message} onRetry={tags.reload} />
      </RemotePage>
    );
  }

  if (tags.state.status === 'ready' && !list.length) {
    return (
      <RemotePage title={title} extra={toolbar}>
        <SectionEmpty description={TAG_PAGE_TEXTS.noTags} note={TAG_PAGE_TEXTS.noTagsNote}>
          <Button type="primary" onClick={() => navigate(TAG_SETTING_PATH)}>
            前往{TAG_PAGE_TEXTS.manage}
          </Button>
        </SectionEmpty>
      </RemotePage>
    );
  }

  return (
    <RemotePage title={title} extra={toolbar}>
      <div style={{ display: 'flex', alignItems: 'stretch', minWidth: 0 }}>
        <SideList label="标签列表" groups={groups} selectedKey={tagId} onSelect={choose} />
        <div style={{ flex: 1, minWidth: 0 }}>
          {current ? (
            <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
              <TagChip tag={current} />
              <Typography.Text type="secondary">{current.isPublic ? '公共标签' : '个人标签'}</Typography.Text>
            </div>
          ) : null}
          {files.state.status === 'error' && !data ? (
            <LoadError message={files.state.message} onRetry={files.reload} />
          ) : (
            <Table<Item>
              aria-label={current ? `标签“${current.name}”的文件` : '标签的文件'}
              rowKey="id"
              size="middle"
              scroll={{ x: 800 }}
              columns={columns}
              dataSource={rows}
              loading={files.state.status === 'loading' || tags.state.status === 'loading'}
              rowSelection={selectionOf(selectedKeys, setSelectedKeys)}
              locale={{
                emptyText: files.state.status === 'loading' ? <span /> : <SectionEmpty description={TAG_PAGE_TEXTS.empty} />,
              }}
              pagination={pagingOf(page, TAG_PAGE_SIZE, data?.total ?? 0, setPage)}
            />
          )}
        </div>
      </div>
    </RemotePage>
  );
}
