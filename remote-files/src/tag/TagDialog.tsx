// 新建标签 and 编辑 of 标签管理: the name (at most TAG_NAME_MAX_LENGTH characters, unlike the
// other tags of its kind), the colour from TAG_COLORS, and for a tag admin whether a new tag is
// a 公共标签 (seen by everyone) or a personal one. Server errors are shown by the shared http
// client; the dialog then stays open.
import { useState } from 'react';
import { Form, Input, Switch, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { api, notify, TAG_COLORS, TAG_NAME_MAX_LENGTH, type Tag } from '@app/shared';
import { AppDialog } from '@app/shared/ui';
import { nameLength, shortNameError } from '../common/shortName';
import { TagChip } from '../folder/ItemBadges';
import { colorName, DEFAULT_TAG_COLOR, textColorOn } from './tagColors';

export const TAG_DIALOG_TEXTS = {
  create: '新建标签',
  edit: '编辑标签',
  created: '新建成功',
  saved: '保存成功',
  publicLabel: '公共标签',
  publicNote: '公共标签对所有人可见，只有标签管理员可以修改',
} as const;

export interface TagDialogProps {
  /** 'new', or the tag edited; null: closed */
  tag: Tag | 'new' | null;
  /** the user may make public tags */
  isTagAdmin: boolean;
  /** every tag listed (a name is unique among the tags of its kind) */
  tags: Tag[];
  onCancel: () => void;
  onSaved: (tag: Tag) => void;
}

export function TagDialog({ tag, ...rest }: TagDialogProps) {
  // a new form each time it opens
  return tag ? <OpenTagDialog key={tag === 'new' ? 'new' : tag.id} tag={tag} {...rest} /> : null;
}

/** The colour swatches: TAG_COLORS, and the tag's own colour when it is another. */
function ColorPicker({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  const colors: string[] = [...TAG_COLORS];
  if (!colors.includes(value.toLowerCase())) colors.push(value);
  return (
    <div role="radiogroup" aria-label="标签颜色" style={{ display: 'flex', flexWrap: 'wrap', gap: 10 }}>
      {colors.map((c) => {
        const checked = c.toLowerCase() === value.toLowerCase();
        return (
          <button
            key={c}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={colorName(c)}
            title={colorName(c)}
            onClick={() => onChange(c)}
            style={{
              width: 24,
              height: 24,
              padding: 0,
              borderRadius: '50%',
              border: '2px solid #fff',
              boxShadow: checked ? `0 0 0 2px ${c}` : '0 0 0 1px rgba(0, 0, 0, 0.06)',
              background: c,
              cursor: 'pointer',
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            {checked ? <CheckOutlined aria-hidden style={{ color: textColorOn(c), fontSize: 12 }} /> : null}
          </button>
        );
      })}
    </div>
  );
}

function OpenTagDialog({ tag, isTagAdmin, tags, onCancel, onSaved }: TagDialogProps & { tag: Tag | 'new' }) {
  const editing = tag === 'new' ? null : tag;
  const [name, setName] = useState(editing?.name ?? '');
  const [color, setColor] = useState(editing?.color ?? DEFAULT_TAG_COLOR);
  const [isPublic, setIsPublic] = useState(editing?.isPublic ?? false);
  const [touched, setTouched] = useState(false);

  // personal tags are the user's own: a name is unique among them, or among the public ones
  const taken = tags.filter((t) => t.isPublic === isPublic && t.id !== editing?.id).map((t) => t.name);
  const error = shortNameError(name, '标签', taken);

  const submit = async () => {
    setTouched(true);
    if (error) return;
    const body = { name: name.trim(), color, isPublic };
    let saved: Tag;
    try {
      saved = editing ? await api.updateTag(editing.id, body) : await api.createTag(body);
    } catch {
      return; // the http client has shown the server's message; the dialog stays open
    }
    notify.success(editing ? TAG_DIALOG_TEXTS.saved : TAG_DIALOG_TEXTS.created);
    onSaved(saved);
  };

  return (
    <AppDialog open title={editing ? TAG_DIALOG_TEXTS.edit : TAG_DIALOG_TEXTS.create} fullscreenable={false} onOk={submit} onCancel={onCancel}>
      <Form layout="vertical" component="div">
        <Form.Item label="标签名称" required validateStatus={touched && error ? 'error' : undefined} help={touched && error ? error : undefined}>
          <Input
            aria-label="标签名称"
            autoFocus
            placeholder="请输入标签名称"
            value={name}
            count={{ show: true, max: TAG_NAME_MAX_LENGTH, strategy: nameLength }}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            onPressEnter={() => void submit()}
          />
        </Form.Item>
        <Form.Item label="颜色">
          <ColorPicker value={color} onChange={setColor} />
        </Form.Item>
        {/* only a tag admin makes public tags; a tag keeps its kind once made */}
        {isTagAdmin && !editing ? (
          <Form.Item label={TAG_DIALOG_TEXTS.publicLabel} extra={TAG_DIALOG_TEXTS.publicNote}>
            <Switch aria-label={TAG_DIALOG_TEXTS.publicLabel} checked={isPublic} onChange={setIsPublic} />
          </Form.Item>
        ) : (
          <Form.Item label="类型">
            <Typography.Text>{isPublic ? '公共标签' : '个人标签（仅自己可见）'}</Typography.Text>
          </Form.Item>
        )}
        <Form.Item label="预览" style={{ marginBottom: 0 }}>
          <TagChip tag={{ id: editing?.id ?? 'preview', name: name.trim() || '标签名称', color }} />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
