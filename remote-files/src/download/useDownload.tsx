// 下载 in 云文档's file list: the shared download hook with the user's own calls.
export { useDownload, DOWNLOAD_TEXTS, DOWNLOAD_NOTICE_KEY } from '@app/shared/ui';
