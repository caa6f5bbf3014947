export { apiUrl, downloadApi, type DownloadTask, type DownloadTaskStatus } from './api';
export {
  compressAndDownload,
  downloadByFrame,
  downloadFile,
  isAppleMobile,
  isCompressing,
  resetDownloadState,
  DOWNLOAD_FRAME_ATTR,
  type CompressionOptions,
  type CompressionOutcome,
} from './runner';
