// 上传 in the toolbar of 云文档's folder page: the shared upload button, into the folder shown.
import type { Item } from '@app/shared';
import { UploadButton as UploadInto, UPLOAD_TEXTS } from '@app/shared/ui';
import { uploadPathOf } from './uploadTarget';

export { UPLOAD_TEXTS };

export function UploadButton({ folder }: { folder: Item }) {
  return <UploadInto target={uploadPathOf(folder)} />;
}
