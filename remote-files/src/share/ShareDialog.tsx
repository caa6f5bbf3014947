// 分享 of files and folders in 云文档: 内部分享 to users, departments and user groups (picked
// with the user-selection dialog), or 外链分享, a link /s/{shareId} with a 提取码 (random or
// typed), an expiry (1, 7, 30 days or 永久有效), a download limit and a permission. The levels
// offered are those the user holds on every item. Once made, the dialog shows the link, the
// key and a QR code, each ready to copy.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, QRCode, Radio, Space, Tabs, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import {
  api,
  copyText,
  expiryAfter,
  notify,
  SHARE_KEY_INVALID,
  SHARE_KEY_PATTERN,
  SHARE_LEVELS,
  shareLinkText,
  shareLinkUrl,
  type CreatedShare,
  type Item,
  type ShareLevel,
} from '@app/shared';
import {
  AppDialog,
  EMPTY_PICK,
  SHARE_FIELD_TEXTS,
  ShareExpiryField,
  ShareLevelField,
  ShareLimitField,
  ShareTargetsField,
  shareTargetsOf,
  type ShareExpiryChoice,
  type UserPickerSelection,
} from '@app/shared/ui';
import { can } from '../actions/permissions';

export const SHARE_TEXTS = {
  title: '分享',
  internal: '内部分享',
  external: '外链分享',
  pickTargets: SHARE_FIELD_TEXTS.pickTargets,
  noTargets: '请选择分享给哪些用户、部门或用户组',
  accessKey: '提取码',
  randomKey: '系统随机生成',
  keyHint: '4 至 16 位字母或数字',
  keyInvalid: SHARE_KEY_INVALID,
  limit: SHARE_FIELD_TEXTS.limit,
  unlimited: SHARE_FIELD_TEXTS.unlimited,
  limitMissing: '请输入下载次数上限',
  create: '创建分享',
  internalDone: '分享成功，对方可在“与我共享”中查看',
  link: '分享链接',
  copyLink: '复制链接和提取码',
  copied: '已复制到剪贴板',
  copyFailed: '复制失败，请手动选择文字复制',
  qr: '扫码打开（已含提取码）',
} as const;

/** The levels the user may share these items at: those they hold on all of them. */
export function shareableLevels(items: Pick<Item, 'permissions'>[]): ShareLevel[] {
  return SHARE_LEVELS.filter((l) => items.every((i) => can(i, l.right as never))).map((l) => l.value);
}

export interface ShareDialogProps {
  /** the items shared; the dialog is open while there are some */
  items: Item[] | null;
  onClose(): void;
}

export function ShareDialog({ items, onClose }: ShareDialogProps) {
  const open = !!items && items.length > 0;
  const levels = useMemo(() => shareableLevels(items ?? []), [items]);
  const [mode, setMode] = useState<'internal' | 'external'>('internal');
  const [level, setLevel] = useState<ShareLevel>(1);
  const [expiry, setExpiry] = useState<ShareExpiryChoice>(7);
  const [selection, setSelection] = useState<UserPickerSelection>(EMPTY_PICK);
  const [randomKey, setRandomKey] = useState(true);
  const [typedKey, setTypedKey] = useState('');
  const [limitOn, setLimitOn] = useState(false);
  const [limit, setLimit] = useState<number | null>(10);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedShare | null>(null);

  useEffect(() => {
    if (!open) return;
    setMode('internal');
    setLevel(levels.includes(2) ? 2 : (levels[0] ?? 1));
    setExpiry(7);
    setSelection(EMPTY_PICK);
    setRandomKey(true);
    setTypedKey('');
    setLimitOn(false);
    setLimit(10);
    setError(null);
    setCreated(null);
  }, [open, levels]);

  const targets = shareTargetsOf(selection);
  const title = items?.length === 1 ? `${SHARE_TEXTS.title}“${items[0].name}”` : `${SHARE_TEXTS.title} ${items?.length ?? 0} 个文件`;

  const submit = async () => {
    if (!items) return;
    setError(null);
    if (mode === 'internal' && !targets.length) {
      setError(SHARE_TEXTS.noTargets);
      return;
    }
    if (mode === 'external' && !randomKey && !SHARE_KEY_PATTERN.test(typedKey.trim())) {
      setError(SHARE_TEXTS.keyInvalid);
      return;
    }
    if (mode === 'external' && limitOn && !limit) {
      setError(SHARE_TEXTS.limitMissing);
      return;
    }
    let result: CreatedShare;
    try {
      result = await api.createShare({
        fileIds: items.map((i) => i.id),
        shareType: mode === 'internal' ? 1 : 2,
        level,
        expireAt: expiryAfter(expiry === 'keep' ? null : expiry),
        ...(mode === 'internal'
          ? { targets: targets.map(({ type, id }) => ({ type, id })) }
          : { accessKey: randomKey ? '' : typedKey.trim(), downloadLimit: limitOn ? limit : null }),
      });
    } catch {
      return; // the message was shown by the http client
    }
    if (mode === 'internal') {
      notify.success(SHARE_TEXTS.internalDone);
      onClose();
      return;
    }
    setCreated(result);
  };

  const copy = async () => {
    if (!created) return;
    const done = await copyText(shareLinkText(created.url, created.accessKey));
    if (done) notify.success(SHARE_TEXTS.copied);
    else notify.warning(SHARE_TEXTS.copyFailed);
  };

  if (created) {
    const link = shareLinkUrl(created.url);
    return (
      <AppDialog open={open} title={title} onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} fullscreenable={false}>
        <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }} data-testid="share-result">
          <Space orientation="vertical" style={{ flex: 1, minWidth: 240 }}>
            <Typography.Text strong>{SHARE_TEXTS.link}</Typography.Text>
            <Input readOnly value={link} aria-label={SHARE_TEXTS.link} />
            <Typography.Text strong>{SHARE_TEXTS.accessKey}</Typography.Text>
            <Input readOnly value={created.accessKey} aria-label={SHARE_TEXTS.accessKey} style={{ width: 200 }} />
            <Button type="primary" icon={<CopyOutlined />} onClick={copy}>
              {SHARE_TEXTS.copyLink}
            </Button>
          </Space>
          <Space orientation="vertical" align="center">
            <QRCode value={shareLinkUrl(created.url, created.accessKey)} size={148} />
            <Typography.Text type="secondary">{SHARE_TEXTS.qr}</Typography.Text>
          </Space>
        </div>
      </AppDialog>
    );
  }

  return (
    <>
      <AppDialog open={open} title={title} onCancel={onClose} onOk={submit} okText={SHARE_TEXTS.create} width={600} fullscreenable={false}>
        <Tabs
          activeKey={mode}
          onChange={(k) => {
            setMode(k as 'internal' | 'external');
            setError(null);
          }}
          items={[
            { key: 'internal', label: SHARE_TEXTS.internal },
            { key: 'external', label: SHARE_TEXTS.external },
          ]}
        />
        <Form layout="horizontal" labelCol={{ flex: '96px' }} colon={false}>
          {mode === 'internal' ? (
            <ShareTargetsField
              selection={selection}
              onChange={(next) => {
                setSelection(next);
                setError(null);
              }}
            />
          ) : null}
          <ShareLevelField value={level} onChange={setLevel} allowed={levels} />
          <ShareExpiryField value={expiry} onChange={setExpiry} />
          {mode === 'external' ? (
            <>
              <Form.Item label={SHARE_TEXTS.accessKey}>
                <Space wrap>
                  <Radio.Group value={randomKey} onChange={(e) => setRandomKey(e.target.value as boolean)}>
                    <Radio value={true}>{SHARE_TEXTS.randomKey}</Radio>
                    <Radio value={false}>自定义</Radio>
                  </Radio.Group>
                  {!randomKey ? (
                    <Input
                      aria-label={SHARE_TEXTS.accessKey}
                      value={typedKey}
                      maxLength={16}
                      placeholder={SHARE_TEXTS.keyHint}
                      onChange={(e) => setTypedKey(e.target.value)}
                      style={{ width: 180 }}
                    />
                  ) : null}
                </Space>
              </Form.Item>
              <ShareLimitField
                on={limitOn}
                value={limit}
                onChange={(on, value) => {
                  setLimitOn(on);
                  setLimit(value);
                }}
              />
            </>
          ) : null}
        </Form>
        {error ? <Alert type="error" showIcon title={error} /> : null}
      </AppDialog>
    </>
  );
}
