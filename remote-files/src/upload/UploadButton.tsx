// 上传 in the toolbar of 云文档's folder page: 上传文件 or 上传文件夹 (a whole folder, its
// sub-folders kept) into the folder shown. The files go to the one upload queue, whose panel
// shows their progress.
import { useRef, type ChangeEvent } from 'react';
import { Button, Dropdown } from 'antd';
import { DownOutlined, FileAddOutlined, FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { uploads, type Item, type UploadSource } from '@app/shared';
import { uploadPathOf } from './uploadTarget';

export const UPLOAD_TEXTS = {
  button: '上传',
  files: '上传文件',
  folder: '上传文件夹',
  filesInput: '选择要上传的文件',
  folderInput: '选择要上传的文件夹',
} as const;

/** Attributes of the folder picker the typings of React do not list. */
const FOLDER_PICKER = { webkitdirectory: '', directory: '' } as Record<string, string>;

export function UploadButton({ folder }: { folder: Item }) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const picked = (asFolder: boolean) => (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const files = Array.from(input.files ?? []);
    // the same files may be picked again later
    input.value = '';
    if (!files.length) return;
    const sources: UploadSource[] = asFolder
      ? files.map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }))
      : files;
    // the upload panel shows refusals and failures
    uploads.enqueue(sources, uploadPathOf(folder)).catch(() => undefined);
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          'aria-label': UPLOAD_TEXTS.button,
          items: [
            { key: 'files', label: UPLOAD_TEXTS.files, icon: <FileAddOutlined /> },
            { key: 'folder', label: UPLOAD_TEXTS.folder, icon: <FolderAddOutlined /> },
          ],
          onClick: ({ key }) => (key === 'folder' ? folderInput : filesInput).current?.click(),
        }}
      >
        <Button type="primary" icon={<UploadOutlined />}>
          {UPLOAD_TEXTS.button} <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-label={UPLOAD_TEXTS.filesInput}
        data-upload-input="files"
        onChange={picked(false)}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        {...FOLDER_PICKER}
        aria-label={UPLOAD_TEXTS.folderInput}
        data-upload-input="folder"
        onChange={picked(true)}
      />
    </>
  );
}
