// The preview pages /preview/:previewData, /mobilityPreview?previewData= and
// /previewVideo?previewData=: the files remote's Preview inside the shared providers, without
// the signed-in layout (an external share's visitor has no session). A lazy chunk, like the
// share page: nothing of the viewers loads before a preview is opened.
import { Result } from 'antd';
import { useParams, useSearchParams } from 'react-router-dom';
import { AppProviders } from '@app/shared/ui';
import { RemoteArea } from '../federation/RemoteArea';
import { isRemoteRegistered } from '../federation/remotes';

export const PREVIEW_HOST_TEXTS = {
  unavailable: '文件预览暂不可用',
  unavailableNote: '当前部署未提供文件模块。',
} as const;

export default function PreviewHost({ mobile = false }: { mobile?: boolean }) {
  const params = useParams();
  const [search] = useSearchParams();
  const previewData = params.previewData ?? search.get('previewData') ?? '';
  return (
    <AppProviders>
      {isRemoteRegistered('files') ? (
        <RemoteArea id="files/Preview" props={{ previewData, mobile }} />
      ) : (
        <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Result status="warning" title={PREVIEW_HOST_TEXTS.unavailable} subTitle={PREVIEW_HOST_TEXTS.unavailableNote} />
        </div>
      )}
    </AppProviders>
  );
}
