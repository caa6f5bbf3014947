export { useDownload, DOWNLOAD_TEXTS, DOWNLOAD_NOTICE_KEY } from './useDownload';
