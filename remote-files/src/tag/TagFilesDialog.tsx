// 标签 of 云文档's file list: the user's tags (personal and public, GET /User/Tags) as checkable
// chips for the items selected. For one item its tags come checked; for several, the tags all
// of them carry. 确定 adds the newly checked tags to every item and removes the unchecked ones.
import { useCallback, useMemo, useState } from 'react';
import { Spin, Tag as AntTag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { api, notify, useLoad, type Item, type Tag, type TagRef } from '@app/shared';
import { AppDialog, LoadError } from '@app/shared/ui';
import { textColorOn } from './tagColors';

export const TAG_SETTING_PATH = '/setting/tag';

export const TAG_FILES_TEXTS = {
  title: '标签',
  saved: '标签已更新',
  empty: '还没有标签',
  manage: '标签管理',
} as const;

export interface TagFilesDialogProps {
  /** the items to tag; null: closed */
  items: Item[] | null;
  onClose: () => void;
  /** after the server took the change: the tags added to every item, the ids removed from every item */
  onDone: (added: TagRef[], removedIds: string[]) => void;
}

/** The tags every one of `items` carries. */
export const commonTagIds = (items: Pick<Item, 'tags'>[]): string[] => {
  if (!items.length) return [];
  const [first, ...rest] = items;
  return (first.tags ?? []).map((t) => t.id).filter((id) => rest.every((i) => (i.tags ?? []).some((t) => t.id === id)));
};

/** A tag as a checkable chip: filled with its colour when checked, outlined in it otherwise. */
export function CheckableTagChip({ tag, checked, onChange }: { tag: TagRef; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <AntTag.CheckableTag
      checked={checked}
      onChange={onChange}
      style={{
        border: `1px solid ${tag.color}`,
        background: checked ? tag.color : undefined,
        color: checked ? textColorOn(tag.color) : tag.color,
        marginInlineEnd: 0,
      }}
    >
      {tag.name}
    </AntTag.CheckableTag>
  );
}

export function TagFilesDialog({ items, ...rest }: TagFilesDialogProps) {
  // a new dialog (and a new load of the tags) each time it opens
  return items?.length ? <OpenTagFilesDialog items={items} {...rest} /> : null;
}

function OpenTagFilesDialog({ items, onClose, onDone }: TagFilesDialogProps & { items: Item[] }) {
  const { state, reload } = useLoad(useCallback(() => api.getTags(), []));
  const initial = useMemo(() => commonTagIds(items), [items]);
  const [checked, setChecked] = useState<string[]>(initial);

  const tags = state.data ?? [];
  const groups: { label: string; tags: Tag[] }[] = [
    { label: '个人标签', tags: tags.filter((t) => !t.isPublic) },
    { label: '公共标签', tags: tags.filter((t) => t.isPublic) },
  ].filter((g) => g.tags.length);

  const toggle = (id: string, on: boolean) => setChecked((c) => (on ? [...c.filter((k) => k !== id), id] : c.filter((k) => k !== id)));

  const save = async () => {
    const fileIds = items.map((i) => i.id);
    const added = checked.filter((id) => !initial.includes(id));
    const removed = initial.filter((id) => !checked.includes(id));
    if (!added.length && !removed.length) {
      onClose();
      return;
    }
    const refs = added
      .map((id) => tags.find((t) => t.id === id))
      .filter((t): t is Tag => !!t)
      .map(({ id, name, color }) => ({ id, name, color }));
    let addedDone = false;
    try {
      if (added.length) await api.addTagsToFiles({ fileIds, tagIds: added });
      addedDone = true;
      if (removed.length) await api.removeTagsFromFiles({ fileIds, tagIds: removed });
    } catch {
      // the http client has shown the server's message; the dialog stays open, unless the
      // tags were added and only their removal failed (the list then shows what was done)
      if (added.length && addedDone) {
        onDone(refs, []);
        onClose();
      }
      return;
    }
    notify.success(TAG_FILES_TEXTS.saved);
    onDone(refs, removed);
    onClose();
  };

  const [first] = items;
  return (
    <AppDialog
      open
      title={TAG_FILES_TEXTS.title}
      fullscreenable={false}
      onOk={save}
      okButtonProps={{ disabled: !state.data }}
      onCancel={onClose}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <div>
          <Typography.Text>{items.length === 1 ? `为“${first.name}”选择标签` : `为选中的 ${items.length} 项选择标签`}</Typography.Text>
          {items.length > 1 ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              勾选的标签将添加到所有选中项，取消勾选的标签将从所有选中项移除
            </Typography.Text>
          ) : null}
        </div>
        {state.status === 'error' && !state.data ? (
          <LoadError message={state.message} onRetry={reload} />
        ) : (
          <Spin spinning={state.status === 'loading'}>
            {state.data && !tags.length ? (
              <Typography.Text type="secondary">{TAG_FILES_TEXTS.empty}</Typography.Text>
            ) : (
              <div style={{ display: 'flex', flexDirection: 'column', gap: 12, minHeight: 48 }}>
                {groups.map((g) => (
                  <div key={g.label} role="group" aria-label={g.label}>
                    <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 6, fontSize: 12 }}>
                      {g.label}
                    </Typography.Text>
                    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                      {g.tags.map((t) => (
                        <CheckableTagChip key={t.id} tag={t} checked={checked.includes(t.id)} onChange={(on) => toggle(t.id, on)} />
                      ))}
                    </div>
                  </div>
                ))}
              </div>
            )}
          </Spin>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          新建或修改标签，请前往 <Link to={TAG_SETTING_PATH}>{TAG_FILES_TEXTS.manage}</Link>
        </Typography.Text>
      </div>
    </AppDialog>
  );
}
