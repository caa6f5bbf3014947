// 下载 in 云文档's file lists and share pages: one file goes straight to the browser's
// downloads; a folder or several items are compressed first, with the progress in a
// notification (closing it stops waiting for the zip), and the zip is downloaded once ready.
import { useCallback } from 'react';
import { App as AntApp, Progress, Typography } from 'antd';
import { compressAndDownload, downloadFile, type CompressionOptions, type Item } from '@app/shared';

export const DOWNLOAD_TEXTS = {
  compressing: '正在压缩文件',
  compressNote: '压缩完成后将自动开始下载',
  ready: '压缩完成，开始下载',
  readyNote: '请在浏览器的下载列表中查看',
} as const;

/** The key of the one compression notification. */
export const DOWNLOAD_NOTICE_KEY = 'files-download-compress';

function CompressProgress({ percent }: { percent: number }) {
  return (
    <div data-download-progress="">
      <Progress percent={percent} size="small" status="active" aria-label={DOWNLOAD_TEXTS.compressing} />
      <Typography.Text type="secondary">{DOWNLOAD_TEXTS.compressNote}</Typography.Text>
    </div>
  );
}

/** Where the bytes come from: the user's own calls by default, a share's otherwise. */
export interface DownloadSource {
  /** one file's download (default: downloadFile) */
  file?: (item: Item) => void;
  createTask?: CompressionOptions['createTask'];
  getStatus?: CompressionOptions['getStatus'];
}

/** Downloads items the user may download: a file directly, anything else as one zip. */
export function useDownload(source: DownloadSource = {}): (items: Item[]) => void {
  const { file, createTask, getStatus } = source;
  const { notification } = AntApp.useApp();
  return useCallback(
    (items: Item[]) => {
      if (!items.length) return;
      if (items.length === 1 && items[0].type === 'file') {
        if (file) file(items[0]);
        else downloadFile(items[0].id);
        return;
      }
      const stop = new AbortController();
      let shown = false;
      const show = (percent: number) => {
        shown = true;
        notification.open({
          key: DOWNLOAD_NOTICE_KEY,
          title: DOWNLOAD_TEXTS.compressing,
          description: <CompressProgress percent={percent} />,
          duration: 0,
          onClose: () => stop.abort(),
        });
      };
      void compressAndDownload(
        items.map((i) => i.id),
        { onProgress: show, signal: stop.signal, createTask, getStatus },
      ).then((outcome) => {
        if (!shown) return; // refused: another compression runs, its notification stays
        if (outcome === 'done') {
          notification.success({
            key: DOWNLOAD_NOTICE_KEY,
            title: DOWNLOAD_TEXTS.ready,
            description: DOWNLOAD_TEXTS.readyNote,
            duration: 3,
            onClose: undefined,
          });
        } else if (outcome !== 'cancelled') {
          notification.destroy(DOWNLOAD_NOTICE_KEY);
        }
      });
    },
    [notification, file, createTask, getStatus],
  );
}
