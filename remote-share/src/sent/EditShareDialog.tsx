// 修改 of a share in 分享记录: its permission, its expiry (kept, or a new one counted from now),
// and for an internal share whom it goes to; for an external link its download limit and a new
// 提取码 (the old one stops working at once; the new one is shown this once).
import { useEffect, useState } from 'react';
import { Alert, App as AntApp, Button, Form, Input, Radio, Space, Typography } from 'antd';
import {
  api,
  copyText,
  expiryAfter,
  notify,
  SHARE_KEY_INVALID,
  SHARE_KEY_PATTERN,
  shareLinkText,
  type ShareLevel,
  type ShareRecord,
  type UpdateShareBody,
} from '@app/shared';
import {
  AppDialog,
  EMPTY_PICK,
  ShareExpiryField,
  ShareLevelField,
  ShareLimitField,
  ShareTargetsField,
  shareTargetsOf,
  type ShareExpiryChoice,
  type UserPickerSelection,
} from '@app/shared/ui';

export const EDIT_TEXTS = {
  title: '修改分享',
  keep: '不变',
  randomKey: '系统随机生成',
  customKey: '自定义',
  noTargets: '请选择分享给哪些用户、部门或用户组',
  saved: '分享已修改',
  newKeyTitle: '新的提取码',
  copy: '复制链接和提取码',
} as const;

function selectionOf(record: ShareRecord): UserPickerSelection {
  return {
    users: record.targets.filter((t) => t.type === 1).map((t) => ({ userId: t.id, userName: t.name, nickName: t.name, deptId: null, deptName: '' })),
    departments: record.targets.filter((t) => t.type === 2).map((t) => ({ id: t.id, name: t.name, parentId: null })),
    groups: record.targets.filter((t) => t.type === 3).map((t) => ({ id: t.id, name: t.name, memberCount: 0 })),
  };
}

export interface EditShareDialogProps {
  record: ShareRecord | null;
  onClose(): void;
  onSaved(): void;
}

export function EditShareDialog({ record, onClose, onSaved }: EditShareDialogProps) {
  const { modal } = AntApp.useApp();
  const [level, setLevel] = useState<ShareLevel>(1);
  const [expiry, setExpiry] = useState<ShareExpiryChoice>('keep');
  const [limitOn, setLimitOn] = useState(false);
  const [limit, setLimit] = useState<number | null>(10);
  const [keyMode, setKeyMode] = useState<'keep' | 'random' | 'custom'>('keep');
  const [typedKey, setTypedKey] = useState('');
  const [selection, setSelection] = useState<UserPickerSelection>(EMPTY_PICK);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!record) return;
    setLevel(record.level);
    setExpiry('keep');
    setLimitOn(record.downloadLimit !== null);
    setLimit(record.downloadLimit ?? 10);
    setKeyMode('keep');
    setTypedKey('');
    setSelection(selectionOf(record));
    setError(null);
  }, [record]);

  const external = record?.shareType === 2;

  const save = async () => {
    if (!record) return;
    setError(null);
    const body: UpdateShareBody = { level };
    if (expiry !== 'keep') body.expireAt = expiryAfter(expiry);
    if (external) {
      if (limitOn && !limit) {
        setError('请输入下载次数上限');
        return;
      }
      body.downloadLimit = limitOn ? limit : null;
      if (keyMode === 'random') body.accessKey = '';
      if (keyMode === 'custom') {
        if (!SHARE_KEY_PATTERN.test(typedKey.trim())) {
          setError(SHARE_KEY_INVALID);
          return;
        }
        body.accessKey = typedKey.trim();
      }
    } else {
      const targets = shareTargetsOf(selection).map(({ type, id }) => ({ type, id }));
      if (!targets.length) {
        setError(EDIT_TEXTS.noTargets);
        return;
      }
      body.targets = targets;
    }
    let updated: ShareRecord & { accessKey: string };
    try {
      updated = await api.updateShare(record.shareId, body);
    } catch {
      return; // shown by the http client
    }
    notify.success(EDIT_TEXTS.saved);
    onSaved();
    onClose();
    if (updated.accessKey) {
      const text = shareLinkText(updated.url, updated.accessKey);
      modal.info({
        title: EDIT_TEXTS.newKeyTitle,
        content: (
          <Space orientation="vertical">
            <Typography.Text copyable={{ text: updated.accessKey }} strong data-testid="new-access-key">
              {updated.accessKey}
            </Typography.Text>
            <Button size="small" onClick={() => void copyText(text).then((ok) => (ok ? notify.success('已复制到剪贴板') : undefined))}>
              {EDIT_TEXTS.copy}
            </Button>
          </Space>
        ),
        okText: '知道了',
      });
    }
  };

  return (
    <>
      <AppDialog open={!!record} title={EDIT_TEXTS.title} onCancel={onClose} onOk={save} width={600} fullscreenable={false}>
        <Form layout="horizontal" labelCol={{ flex: '96px' }} colon={false}>
          {!external ? <ShareTargetsField selection={selection} onChange={setSelection} /> : null}
          <ShareLevelField value={level} onChange={setLevel} />
          <ShareExpiryField value={expiry} onChange={setExpiry} keepable extra={record ? `当前：${record.expireAt ?? '永久有效'}` : undefined} />
          {external ? (
            <>
              <ShareLimitField
                on={limitOn}
                value={limit}
                extra={record ? `已下载 ${record.downloadCount} 次` : undefined}
                onChange={(on, value) => {
                  setLimitOn(on);
                  setLimit(value);
                }}
              />
              <Form.Item label="提取码">
                <Space wrap>
                  <Radio.Group value={keyMode} onChange={(e) => setKeyMode(e.target.value as typeof keyMode)}>
                    <Radio value="keep">{EDIT_TEXTS.keep}</Radio>
                    <Radio value="random">{EDIT_TEXTS.randomKey}</Radio>
                    <Radio value="custom">{EDIT_TEXTS.customKey}</Radio>
                  </Radio.Group>
                  {keyMode === 'custom' ? (
                    <Input aria-label="新的提取码" value={typedKey} maxLength={16} placeholder="4 至 16 位字母或数字" onChange={(e) => setTypedKey(e.target.value)} style={{ width: 180 }} />
                  ) : null}
                </Space>
              </Form.Item>
            </>
          ) : null}
        </Form>
        {error ? <Alert type="error" showIcon title={error} /> : null}
      </AppDialog>
    </>
  );
}
