// Text and code of a preview: the server sends the decoded text (UTF-8 or GB18030, at most
// TEXT_PREVIEW_LIMIT bytes of it); shown with line numbers in a monospace font, coloured by
// highlight.js for the common languages. The plain text shows at once (React escapes it); the
// coloured version replaces it once the highlighter's chunk has loaded.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Result, Typography } from 'antd';
import { api, formatBytes, Messages, TEXT_PREVIEW_LIMIT, type TextPreview } from '@app/shared';
import { HIGHLIGHT_MAX_CHARS, languageOf } from './languages';
import { PreviewLoading } from './PreviewLoading';
import { previewRequestConfig } from './previewUrls';

export const TEXT_VIEWER_TEXTS = {
  truncated: `文件较大，仅显示前 ${formatBytes(TEXT_PREVIEW_LIMIT)}`,
  encoding: (e: TextPreview['encoding']) => `编码：${e === 'gb18030' ? 'GB18030' : 'UTF-8'}`,
  lines: (n: number) => `共 ${n} 行`,
  empty: '文件内容为空',
} as const;

type Load = { status: 'loading' } | { status: 'ready'; data: TextPreview } | { status: 'error'; message: string };

/** The text's lines: line breaks of any platform, without the empty line after a final break. */
function linesOf(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export interface TextViewerProps {
  /** the payload's data.url (a path from the site root) */
  url: string;
  accessKey: string | null;
  extension: string;
  mobile?: boolean;
}

export function TextViewer({ url, accessKey, extension, mobile = false }: TextViewerProps) {
  const [state, setState] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [html, setHtml] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    setHtml(null);
    api
      .getPreviewText(url, previewRequestConfig(accessKey))
      .then((data) => live && setState({ status: 'ready', data }))
      .catch((e: unknown) => live && setState({ status: 'error', message: e instanceof Error && e.message ? e.message : Messages.previewFailed }));
    return () => {
      live = false;
    };
  }, [url, accessKey, attempt]);

  const data = state.status === 'ready' ? state.data : null;
  const lines = useMemo(() => (data ? linesOf(data.text) : []), [data]);
  const code = useMemo(() => lines.join('\n'), [lines]);
  const language = languageOf(extension);

  useEffect(() => {
    if (!data || !language || !code || code.length > HIGHLIGHT_MAX_CHARS) return;
    let live = true;
    import(/* webpackChunkName: "highlight" */ './highlight')
      .then(({ highlightCode }) => {
        const out = highlightCode(code, language);
        if (live && out !== null) setHtml(out);
      })
      .catch(() => {
        /* the plain text stays */
      });
    return () => {
      live = false;
    };
  }, [data, code, language]);

  if (state.status === 'loading') {
    return <PreviewLoading />;
  }
  if (state.status === 'error') {
    return <Result status="warning" title={Messages.previewFailed} subTitle={state.message} extra={<Button onClick={() => setAttempt((a) => a + 1)}>重试</Button>} />;
  }

  const { encoding, truncated } = state.data;
  const fontSize = mobile ? 12 : 13;
  return (
    <div style={{ height: '100%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap', padding: mobile ? '6px 10px' : '8px 16px' }}>
        <Typography.Text type="secondary" data-encoding="">
          {TEXT_VIEWER_TEXTS.encoding(encoding)}
        </Typography.Text>
        <Typography.Text type="secondary">{TEXT_VIEWER_TEXTS.lines(code ? lines.length : 0)}</Typography.Text>
      </div>
      {truncated ? <Alert type="warning" showIcon title={TEXT_VIEWER_TEXTS.truncated} style={{ margin: mobile ? '0 8px 8px' : '0 16px 8px' }} /> : null}
      {code ? (
        <div
          className="yw-preview-text"
          role="region"
          aria-label="文件内容"
          tabIndex={0}
          style={{ flex: 1, minHeight: 0, overflow: 'auto', display: 'flex', alignItems: 'flex-start', background: '#fff', fontSize }}
        >
          <pre className="yw-preview-gutter" aria-hidden="true" data-line-numbers="">
            {lines.map((_, i) => i + 1).join('\n')}
          </pre>
          <pre className="yw-preview-code">
            {html !== null ? (
              <code className="hljs" data-highlighted="" dangerouslySetInnerHTML={{ __html: html }} />
            ) : (
              <code>{code}</code>
            )}
          </pre>
        </div>
      ) : (
        <Result status="info" title={TEXT_VIEWER_TEXTS.empty} />
      )}
    </div>
  );
}
