// Video and audio of a preview: the browser's own player on the file's bytes. The server
// answers Range requests, so a video seeks before it has downloaded.
import { useState } from 'react';
import { Result } from 'antd';
import { CustomerServiceOutlined } from '@ant-design/icons';

export const MEDIA_TEXTS = {
  cannotPlay: '无法播放该文件',
  cannotPlayNote: '浏览器可能不支持该格式，请下载后使用本地播放器观看。',
} as const;

export function MediaViewer({ kind, url, name }: { kind: 'video' | 'audio'; url: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <Result status="warning" title={MEDIA_TEXTS.cannotPlay} subTitle={MEDIA_TEXTS.cannotPlayNote} />;
  return (
    <div style={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16, boxSizing: 'border-box' }}>
      {kind === 'video' ? (
        <video
          src={url}
          controls
          preload="metadata"
          playsInline
          aria-label={name}
          onError={() => setFailed(true)}
          style={{ maxWidth: '100%', maxHeight: '100%', background: '#000', borderRadius: 4 }}
        />
      ) : (
        <div style={{ width: 'min(560px, 100%)', textAlign: 'center' }}>
          <CustomerServiceOutlined style={{ fontSize: 64, color: '#8c8c8c', marginBottom: 24 }} />
          <audio src={url} controls preload="metadata" aria-label={name} onError={() => setFailed(true)} style={{ width: '100%' }} />
        </div>
      )}
    </div>
  );
}
