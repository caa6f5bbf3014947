// The public share page /s/:shareId that outside visitors open from a share link. No session:
// first who shares and until when, and the 提取码 form (filled in from `?key=` when the link
// carries it); with the right key, the shared folders with breadcrumbs, 下载 of one file,
// 打包下载 of several, a file's preview in a new tab (it finds the key in session storage), and
// 上传 at level 3 through the shell's upload panel. A share that does not exist, has expired,
// was cancelled or has used up its downloads shows only 指定的分享不存在或已过期。
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, Result, Space, Spin, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  api,
  ApiError,
  downloadApi,
  downloadByFrame,
  Messages,
  sessionStore,
  shareKeyStorageName,
  shareLevelName,
  type FolderItems,
  type Item,
  type OutsourceInfo,
} from '@app/shared';
import { RemotePage, useDownload } from '@app/shared/ui';
import { SharedFolder } from './browse/SharedFolder';

export const SHARE_PAGE_TEXTS = {
  title: '外链分享',
  keyLabel: '提取码',
  keyPlaceholder: '请输入提取码',
  submit: '提取文件',
  keyNeeded: '请输入提取码',
  owner: '分享人',
  expiry: '有效期至',
  never: '永久有效',
  level: '权限',
  loadFailed: '分享加载失败，请稍后重试',
} as const;

type Phase = { kind: 'loading' } | { kind: 'gone' } | { kind: 'failed'; message: string } | { kind: 'key'; info: OutsourceInfo; error?: string } | { kind: 'open'; info: OutsourceInfo; key: string };

const GONE_CODE = 401;

function failureOf(e: unknown): { gone: boolean; message: string } {
  if (e instanceof ApiError) return { gone: e.code === GONE_CODE, message: e.message || Messages.requestError };
  return { gone: false, message: Messages.requestError };
}

export default function SharePage() {
  const { shareId = '' } = useParams();
  const [search] = useSearchParams();
  const linkKey = search.get('key');
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [typed, setTyped] = useState('');
  const [checking, setChecking] = useState(false);
  const [folderId, setFolderId] = useState<string | null>(null);

  /** Asks with `key` (or none): the share opens, or the key form shows with the reason. */
  const tryKey = useCallback(
    async (key: string | null) => {
      try {
        const info = await api.getOutsource(shareId, key, { errorMode: 'none' });
        if (!info.needKey && key) {
          sessionStore.set(shareKeyStorageName(shareId), key);
          setPhase({ kind: 'open', info, key });
          return;
        }
        setPhase({ kind: 'key', info });
      } catch (e) {
        const failure = failureOf(e);
        if (failure.gone) {
          setPhase({ kind: 'gone' });
          return;
        }
        if (!key) {
          setPhase({ kind: 'failed', message: failure.message });
          return;
        }
        sessionStore.remove(shareKeyStorageName(shareId));
        // a wrong key (40302) or too many (429): the form again, with the reason
        try {
          const info = await api.getOutsource(shareId, null, { errorMode: 'none' });
          setPhase({ kind: 'key', info, error: failure.message });
        } catch (again) {
          const f = failureOf(again);
          setPhase(f.gone ? { kind: 'gone' } : { kind: 'failed', message: f.message });
        }
      }
    },
    [shareId],
  );

  useEffect(() => {
    setPhase({ kind: 'loading' });
    setFolderId(null);
    const remembered = sessionStore.get<string>(shareKeyStorageName(shareId));
    void tryKey(linkKey || remembered || null);
  }, [shareId, linkKey, tryKey]);

  const open = phase.kind === 'open' ? phase : null;
  const accessKey = open?.key ?? '';
  const load = useCallback(
    (folder: string | null, page: number, pageSize: number): Promise<FolderItems> =>
      api.getOutsourceItems(shareId, accessKey, { ...(folder ? { folderId: folder } : {}), page, pageSize }),
    [shareId, accessKey],
  );
  const source = useMemo(
    () => ({
      file: (item: Item) => {
        downloadByFrame(downloadApi.externalFileUrl(item.id, shareId, accessKey));
      },
      createTask: (ids: string[]) => downloadApi.createExternalTask(shareId, ids, accessKey),
      getStatus: (taskId: string) => downloadApi.externalTaskStatus(shareId, taskId, accessKey),
    }),
    [shareId, accessKey],
  );
  const download = useDownload(source);

  const submit = async () => {
    const key = typed.trim();
    if (!key) {
      if (phase.kind === 'key') setPhase({ ...phase, error: SHARE_PAGE_TEXTS.keyNeeded });
      return;
    }
    setChecking(true);
    try {
      await tryKey(key);
    } finally {
      setChecking(false);
    }
  };

  if (phase.kind === 'loading') {
    return (
      <RemotePage title={SHARE_PAGE_TEXTS.title}>
        <Spin />
      </RemotePage>
    );
  }
  if (phase.kind === 'gone') {
    return <Result status="404" title={Messages.shareExpired} data-testid="share-gone" />;
  }
  if (phase.kind === 'failed') {
    return <Result status="warning" title={SHARE_PAGE_TEXTS.loadFailed} subTitle={phase.message} extra={<Button onClick={() => void tryKey(null)}>重试</Button>} />;
  }

  const info = phase.info;
  const facts = (
    <Descriptions
      column={{ xs: 1, sm: 3 }}
      size="small"
      items={[
        { key: 'owner', label: SHARE_PAGE_TEXTS.owner, children: info.ownerName },
        { key: 'expiry', label: SHARE_PAGE_TEXTS.expiry, children: info.expireAt ?? SHARE_PAGE_TEXTS.never },
        { key: 'level', label: SHARE_PAGE_TEXTS.level, children: shareLevelName(info.level) },
      ]}
    />
  );

  if (phase.kind === 'key') {
    return (
      <RemotePage title={SHARE_PAGE_TEXTS.title}>
        {facts}
        <Typography.Paragraph>{info.ownerName} 给你分享了文件，请输入提取码查看。</Typography.Paragraph>
        <Form layout="inline" onFinish={submit}>
          <Form.Item label={SHARE_PAGE_TEXTS.keyLabel}>
            <Input
              autoFocus
              prefix={<LockOutlined />}
              value={typed}
              maxLength={64}
              placeholder={SHARE_PAGE_TEXTS.keyPlaceholder}
              aria-label={SHARE_PAGE_TEXTS.keyLabel}
              onChange={(e) => setTyped(e.target.value)}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={checking}>
              {SHARE_PAGE_TEXTS.submit}
            </Button>
          </Form.Item>
        </Form>
        {phase.error ? <Alert style={{ marginTop: 12 }} type="error" showIcon title={phase.error} role="alert" /> : null}
      </RemotePage>
    );
  }

  return (
    <RemotePage title={info.name || SHARE_PAGE_TEXTS.title}>
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        {facts}
        <SharedFolder
          shareId={shareId}
          folderId={folderId}
          onNavigate={setFolderId}
          load={load}
          level={info.level}
          download={download}
          uploadTarget={(folder) => ({ wjFileId: folder.id, shareId, accessKey, namePath: folder.namePath, idPath: folder.idPath })}
        />
      </Space>
    </RemotePage>
  );
}
