// The preview page of 云文档 (exposed as files/Preview; the shell mounts it at
// /preview/{previewData}, /mobilityPreview and /previewVideo, also for visitors without a
// session). It reads the address (previewData.ts), asks the server for the preview payload
// (CreateComponentData: own files with the session, a share with its id, an external share with
// its 提取码 from session storage), and shows the bar and the viewer of the payload's source,
// with the watermark over it when the payload has one.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import {
  api,
  ApiError,
  decodePreviewData,
  downloadByFrame,
  Messages,
  sessionStore,
  shareKeyStorageName,
  type PreviewBody,
  type PreviewPayload,
  type PreviewTarget,
} from '@app/shared';
import { ImageViewer } from './ImageViewer';
import { MediaViewer } from './MediaViewer';
import { OfficeViewer } from './OfficeViewer';
import { PdfViewer } from './PdfViewer';
import { PreviewBar } from './PreviewBar';
import { PreviewLoading } from './PreviewLoading';
import { previewUrl } from './previewUrls';
import { TextViewer } from './TextViewer';
import { Watermark } from './Watermark';
import './preview.css';

export const PREVIEW_TEXTS = {
  invalid: '预览地址无效',
  invalidNote: '请回到文件列表重新打开预览。',
  loading: '正在打开文件…',
  retry: '重试',
  relogin: '重新登录',
  pageTitle: (name: string) => `${name} - 文件预览`,
} as const;

export interface PreviewScreenProps {
  /** the address's previewData (previewData.ts) */
  previewData: string;
  /** a phone: compact bar, viewers fitted to the width */
  mobile?: boolean;
}

export default function PreviewScreen({ previewData, mobile = false }: PreviewScreenProps) {
  const target = useMemo(() => decodePreviewData(previewData), [previewData]);
  if (!target) {
    return (
      <div className="yw-preview" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f5f6f8' }}>
        <Result status="warning" title={PREVIEW_TEXTS.invalid} subTitle={PREVIEW_TEXTS.invalidNote} />
      </div>
    );
  }
  return <PreviewSession key={previewData} target={target} mobile={mobile} />;
}

type Load =
  | { status: 'loading' }
  | { status: 'ready'; payload: PreviewPayload }
  | { status: 'error'; message: string; signedOut: boolean };

function PreviewSession({ target, mobile }: { target: PreviewTarget; mobile: boolean }) {
  const navigate = useNavigate();
  const { shareId } = target;
  // an external share's key, kept by the share page (and copied into this tab when it opened it)
  const accessKey = useMemo(() => (shareId ? sessionStore.get<string>(shareKeyStorageName(shareId)) : null) || null, [shareId]);
  const [fileId, setFileId] = useState(target.fileId);
  // the version asked for belongs to the file opened, not to its neighbours
  const versionId = fileId === target.fileId ? target.versionId : undefined;
  const [state, setState] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    const body: PreviewBody = { fileId };
    if (versionId) body.versionId = versionId;
    if (shareId) body.shareId = shareId;
    api
      .createComponentData(body, accessKey, { errorMode: 'none', silentLogout: true })
      .then((payload) => {
        if (live) setState({ status: 'ready', payload });
      })
      .catch((e: unknown) => {
        if (!live) return;
        const message = e instanceof Error && e.message ? e.message : Messages.requestError;
        setState({ status: 'error', message, signedOut: e instanceof ApiError && e.code === 401 && !accessKey });
      });
    return () => {
      live = false;
    };
  }, [fileId, versionId, shareId, accessKey, attempt]);

  const list = target.list ?? [];
  const at = list.indexOf(fileId);
  const prevId = at > 0 ? list[at - 1] : null;
  const nextId = at >= 0 && at < list.length - 1 ? list[at + 1] : null;
  const onPrev = useMemo(() => (prevId ? () => setFileId(prevId) : null), [prevId]);
  const onNext = useMemo(() => (nextId ? () => setFileId(nextId) : null), [nextId]);

  const payload = state.status === 'ready' ? state.payload : null;
  const name = payload?.data.name ?? (fileId === target.fileId ? target.name : undefined) ?? '';

  useEffect(() => {
    if (!name) return;
    const before = document.title;
    document.title = PREVIEW_TEXTS.pageTitle(name);
    return () => {
      document.title = before;
    };
  }, [name]);

  const downloadUrl = payload?.data.downloadUrl ?? null;
  const download = useCallback(() => {
    if (downloadUrl) downloadByFrame(previewUrl(downloadUrl, accessKey));
  }, [downloadUrl, accessKey]);

  let body;
  if (state.status === 'loading') {
    body = <PreviewLoading text={PREVIEW_TEXTS.loading} />;
  } else if (state.status === 'error') {
    body = (
      <Result
        status="warning"
        title={Messages.previewUrlFailed}
        subTitle={state.message}
        extra={
          state.signedOut ? (
            <Button type="primary" onClick={() => navigate('/login')}>
              {PREVIEW_TEXTS.relogin}
            </Button>
          ) : (
            <Button onClick={() => setAttempt((a) => a + 1)}>{PREVIEW_TEXTS.retry}</Button>
          )
        }
      />
    );
  } else {
    body = <Viewer payload={state.payload} accessKey={accessKey} mobile={mobile} onPrev={onPrev} onNext={onNext} />;
  }

  return (
    <div className="yw-preview" style={{ display: 'flex', flexDirection: 'column', background: '#f5f6f8', minWidth: 0, overflow: 'hidden' }}>
      <PreviewBar
        name={name || PREVIEW_TEXTS.loading}
        extension={payload?.data.extension ?? (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '')}
        size={payload?.data.size}
        updatedAt={payload?.data.updatedAt}
        position={at >= 0 && list.length > 1 ? { at: at + 1, total: list.length } : null}
        onPrev={onPrev}
        onNext={onNext}
        onDownload={downloadUrl ? download : null}
        mobile={mobile}
      />
      <main style={{ position: 'relative', flex: 1, minHeight: 0, overflow: 'hidden' }}>
        <div style={{ height: '100%', overflow: 'auto' }}>{body}</div>
        {payload?.data.watermark ? <Watermark text={payload.data.watermark} mobile={mobile} /> : null}
      </main>
    </div>
  );
}

interface ViewerProps {
  payload: PreviewPayload;
  accessKey: string | null;
  mobile: boolean;
  onPrev: (() => void) | null;
  onNext: (() => void) | null;
}

/** The viewer of the payload's source; a new file starts a new viewer. */
function Viewer({ payload, accessKey, mobile, onPrev, onNext }: ViewerProps) {
  const { data, source, fileId } = payload;
  const key = `${fileId}:${data.versionId ?? ''}`;
  const url = previewUrl(data.url, accessKey);
  if (!payload.PreviewActions.previewable) return <Result status="info" title={Messages.cannotPreview} />;
  switch (source) {
    case 'image':
      return (
        <ImageViewer
          key={key}
          url={url}
          name={data.name}
          thumbnailUrl={data.thumbnailUrl ? previewUrl(data.thumbnailUrl, accessKey) : null}
          onPrev={onPrev ?? undefined}
          onNext={onNext ?? undefined}
          mobile={mobile}
        />
      );
    case 'pdf':
      return <PdfViewer key={key} url={url} mobile={mobile} />;
    case 'video':
    case 'audio':
      return <MediaViewer key={key} kind={source} url={url} name={data.name} />;
    case 'text':
      return <TextViewer key={key} url={data.url} accessKey={accessKey} extension={data.extension} mobile={mobile} />;
    case 'office':
      return <OfficeViewer key={key} conversionUrl={data.conversionUrl} pdfUrl={url} accessKey={accessKey} mobile={mobile} />;
    default:
      return <Result status="info" title={Messages.cannotPreview} />;
  }
}
