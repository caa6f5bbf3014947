// Office documents of a preview: the server converts them to PDF (LibreOffice). The conversion
// state is asked every 1.5 s while it says 'converting'; once 'ready' the PDF is shown by the PDF
// viewer, and 'failed' shows the server's reason.
import { useEffect, useState } from 'react';
import { Button, Result } from 'antd';
import { api, Messages } from '@app/shared';
import { PdfViewer } from './PdfViewer';
import { PreviewLoading } from './PreviewLoading';
import { previewRequestConfig } from './previewUrls';

export const OFFICE_TEXTS = {
  converting: '正在转换文档…',
  failed: '文档转换失败',
} as const;

/** Between two questions about the conversion. */
export const CONVERSION_POLL_MS = 1500;

type Conversion = { status: 'converting' } | { status: 'ready' } | { status: 'failed'; message: string } | { status: 'error'; message: string };

export interface OfficeViewerProps {
  /** GET → PreviewConversion (a path from the site root); null: the PDF is ready */
  conversionUrl: string | null;
  /** the converted PDF, as the browser fetches it */
  pdfUrl: string;
  accessKey: string | null;
  mobile?: boolean;
}

export function OfficeViewer({ conversionUrl, pdfUrl, accessKey, mobile = false }: OfficeViewerProps) {
  const [state, setState] = useState<Conversion>(conversionUrl ? { status: 'converting' } : { status: 'ready' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!conversionUrl) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ status: 'converting' });
    const ask = async () => {
      try {
        const answer = await api.getPreviewConversion(conversionUrl, previewRequestConfig(accessKey));
        if (!live) return;
        if (answer.status === 'ready') setState({ status: 'ready' });
        else if (answer.status === 'failed') setState({ status: 'failed', message: answer.message || OFFICE_TEXTS.failed });
        else timer = setTimeout(() => void ask(), CONVERSION_POLL_MS);
      } catch (e) {
        if (live) setState({ status: 'error', message: e instanceof Error && e.message ? e.message : Messages.previewFailed });
      }
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [conversionUrl, accessKey, attempt]);

  if (state.status === 'converting') return <PreviewLoading text={OFFICE_TEXTS.converting} />;
  if (state.status === 'failed') return <Result status="warning" title={OFFICE_TEXTS.failed} subTitle={state.message} />;
  if (state.status === 'error') {
    return <Result status="warning" title={Messages.previewFailed} subTitle={state.message} extra={<Button onClick={() => setAttempt((a) => a + 1)}>重试</Button>} />;
  }
  return <PdfViewer url={pdfUrl} mobile={mobile} />;
}
