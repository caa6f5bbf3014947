// The 标签 filter of the advanced search: several of the user's tags (own and public, from
// api.getTags), each shown in its colour; the results carry all the tags chosen.
import { useEffect, useState } from 'react';
import { Select, Tag as AntTag } from 'antd';
import { api, type Tag } from '@app/shared';

export interface TagSelectProps {
  id?: string;
  value?: string[];
  onChange?: (value: string[]) => void;
}

const Dot = ({ color }: { color: string }) => (
  <span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', background: color, marginInlineEnd: 6 }} />
);

export function TagSelect({ id, value, onChange }: TagSelectProps) {
  const [tags, setTags] = useState<Tag[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    let live = true;
    api
      .getTags({ errorMode: 'none' })
      .then((list) => {
        if (!live) return;
        setTags(list);
        setStatus('ready');
      })
      .catch(() => {
        if (live) setStatus('error');
      });
    return () => {
      live = false;
    };
  }, []);

  const colorOf = (tagId: unknown) => tags.find((t) => t.id === tagId)?.color;

  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      allowClear
      aria-label="标签"
      placeholder="全部"
      value={value}
      onChange={onChange}
      loading={status === 'loading'}
      notFoundContent={status === 'error' ? '标签加载失败' : status === 'loading' ? '加载中…' : '暂无标签'}
      optionFilterProp="label"
      options={tags.map((t) => ({ value: t.id, label: t.name }))}
      optionRender={(option) => (
        <span>
          <Dot color={colorOf(option.value) ?? '#d9d9d9'} />
          {option.label}
        </span>
      )}
      tagRender={({ label, value: tagId, closable, onClose }) => (
        <AntTag color={colorOf(tagId)} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>
          {label}
        </AntTag>
      )}
    />
  );
}
