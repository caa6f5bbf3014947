export { UploadButton, UPLOAD_TEXTS } from './UploadButton';
export { canUploadInto, uploadPathOf, useDropTarget, useUploadsSettled } from './uploadTarget';
