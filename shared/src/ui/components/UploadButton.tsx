// 上传 in the toolbar of 云文档's folder pages and of the share pages: 上传文件 or 上传文件夹
// (a whole folder, its sub-folders kept) into the folder shown. The files go to the one upload
// queue, whose panel shows their progress. Also the hooks that tie a page to that queue.
import { useEffect, useRef, type ChangeEvent } from 'react';
import { Button, Dropdown } from 'antd';
import { DownOutlined, FileAddOutlined, FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { uploads, type UploadPath, type UploadSource, type UploadsSettledEvent } from '@app/shared';

export const UPLOAD_TEXTS = {
  button: '上传',
  files: '上传文件',
  folder: '上传文件夹',
  filesInput: '选择要上传的文件',
  folderInput: '选择要上传的文件夹',
} as const;

/** Attributes of the folder picker the typings of React do not list. */
const FOLDER_PICKER = { webkitdirectory: '', directory: '' } as Record<string, string>;

export function UploadButton({ target }: { target: UploadPath }) {
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
    uploads.enqueue(sources, target).catch(() => undefined);
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        // the file dialog follows: the engine starts getting ready for the files meanwhile
        onOpenChange={(open) => {
          if (open) uploads.prepare();
        }}
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

/**
 * Makes `target` the folder that files dropped anywhere on the page go to, while it is set;
 * none once the page is left.
 */
export function useUploadDropTarget(target: UploadPath | null): void {
  const key = target ? `${target.shareId ?? ''}:${target.wjFileId}:${target.accessKey ?? ''}` : '';
  const latest = useRef(target);
  latest.current = target;
  useEffect(() => {
    uploads.setDropTarget(latest.current);
    return () => uploads.setDropTarget(null);
  }, [key]);
}

/**
 * Calls `onSettled` when the upload queue drains with files in the folder shown, or with
 * uploaded folders (the tree may have changed anywhere).
 */
export function useUploadsSettled(folderId: string | undefined, onSettled: (event: UploadsSettledEvent) => void): void {
  const latest = useRef({ folderId, onSettled });
  latest.current = { folderId, onSettled };
  useEffect(
    () =>
      uploads.onSettled((event) => {
        const { folderId: shown, onSettled: run } = latest.current;
        if (event.withFolders || (shown !== undefined && event.folderIds.includes(shown))) run(event);
      }),
    [],
  );
}
