import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { api, registerUploadService, uploads, type UploadService, type UploadsSettledEvent } from '@app/shared';
import { mockFilesPage, renderFiles, root } from '../__tests__/filesPage';
import { page, personalRoot, READ } from '../__tests__/fixtures';
import { UPLOAD_TEXTS } from './UploadButton';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

const ROOT_TARGET = { wjFileId: '10', type: 2, namePath: '个人文件', idPath: '2/10' };

let enqueue: jest.Mock;
let prepare: jest.Mock;
let settle: (event: UploadsSettledEvent) => void;

beforeEach(() => {
  enqueue = jest.fn().mockResolvedValue(undefined);
  prepare = jest.fn();
  const listeners = new Set<(event: UploadsSettledEvent) => void>();
  settle = (event) => listeners.forEach((l) => l(event));
  const service: UploadService = {
    enqueue,
    prepare,
    onSettled: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  registerUploadService(service);
});
afterEach(() => {
  registerUploadService(null);
  uploads.setDropTarget(null);
});

const uploadButton = () => screen.queryByRole('button', { name: /上传/ });
const input = (kind: 'files' | 'folder') => document.querySelector(`input[data-upload-input="${kind}"]`) as HTMLInputElement;

function pick(target: HTMLInputElement, files: File[]) {
  Object.defineProperty(target, 'files', { configurable: true, value: files });
  fireEvent.change(target);
}

function fileIn(relativePath: string, body = 'x') {
  const name = relativePath.split('/').pop() as string;
  const file = new File([body], name, { type: 'text/plain' });
  Object.defineProperty(file, 'webkitRelativePath', { value: relativePath });
  return file;
}

describe('上传', () => {
  it('offers 上传文件 and 上传文件夹 in a folder the user may upload into', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    const click = jest.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => undefined);

    expect(prepare).not.toHaveBeenCalled();
    fireEvent.click(uploadButton() as HTMLElement);
    const menu = await screen.findByRole('menu', { name: UPLOAD_TEXTS.button });
    // the engine gets ready (options, hashing worker) while the user chooses
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(menu).toHaveTextContent(UPLOAD_TEXTS.files);
    expect(menu).toHaveTextContent(UPLOAD_TEXTS.folder);

    fireEvent.click(screen.getByText(UPLOAD_TEXTS.folder));
    expect(click).toHaveBeenCalledTimes(1);
    expect(click.mock.contexts[0]).toBe(input('folder'));

    // the pickers: several files, and a whole folder
    expect(input('files')).toHaveAttribute('multiple');
    expect(input('files')).not.toHaveAttribute('webkitdirectory');
    expect(input('folder')).toHaveAttribute('webkitdirectory');
    expect(input('folder')).toHaveAttribute('multiple');
  });

  it('is not offered without the upload right', async () => {
    mocks.getItems.mockResolvedValue(page({ ...personalRoot, permissions: READ }, []));
    renderFiles();
    await screen.findAllByText('暂无数据');
    expect(uploadButton()).not.toBeInTheDocument();
    expect(input('files')).toBeNull();
  });

  it('sends picked files to the folder shown', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    const a = new File(['a'], '会议纪要.txt');
    const b = new File(['bb'], '预算.xlsx');
    pick(input('files'), [a, b]);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(enqueue).toHaveBeenCalledWith([a, b], ROOT_TARGET);
    // picked again later, the same files still fire a change
    expect(input('files').value).toBe('');
  });

  it('sends a picked folder with each file’s path inside it', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    const one = fileIn('资料/说明.txt');
    const two = fileIn('资料/图片/封面.png');
    pick(input('folder'), [one, two]);
    expect(enqueue).toHaveBeenCalledWith(
      [
        { file: one, relativePath: '资料/说明.txt' },
        { file: two, relativePath: '资料/图片/封面.png' },
      ],
      ROOT_TARGET,
    );
  });

  it('ignores an empty pick', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    pick(input('files'), []);
    expect(enqueue).not.toHaveBeenCalled();
  });
});

describe('拖入上传的目标文件夹', () => {
  it('is the folder shown while the user may upload, and none once the page is left', async () => {
    const { unmount } = renderFiles();
    await screen.findByText('季度报告.docx');
    expect(uploads.getDropTarget()).toEqual(ROOT_TARGET);
    unmount();
    expect(uploads.getDropTarget()).toBeNull();
  });

  it('is none in a folder the user may only read', async () => {
    uploads.setDropTarget(ROOT_TARGET); // left by another page
    mocks.getItems.mockResolvedValue(page({ ...personalRoot, permissions: READ }, []));
    renderFiles();
    await screen.findAllByText('暂无数据');
    expect(uploads.getDropTarget()).toBeNull();
  });

  it('follows the folder opened', async () => {
    const docs = { ...root, id: '11', parentId: '10', name: '项目文档', idPath: '2/10/11', namePath: '个人文件/项目文档' };
    mocks.getItems.mockImplementation(async (id: string) => (id === '11' ? page(docs, []) : page(root, [{ ...docs }])));
    renderFiles();
    await screen.findByText('项目文档');
    expect(uploads.getDropTarget()?.wjFileId).toBe('10');
    fireEvent.click(screen.getByText('项目文档'));
    await screen.findAllByText('暂无数据');
    await waitFor(() =>
      expect(uploads.getDropTarget()).toEqual({ wjFileId: '11', type: 2, namePath: '个人文件/项目文档', idPath: '2/10/11' }),
    );
  });
});

describe('上传完成后', () => {
  it('reloads the list when files landed in the folder shown', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    act(() => settle({ folderIds: ['99'], withFolders: false }));
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    act(() => settle({ folderIds: ['10'], withFolders: false }));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
  });

  it('reloads the list and the tree when folders were uploaded', async () => {
    jest.spyOn(api, 'getFolderTree').mockResolvedValue([
      { id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: true },
    ]);
    const treeNodes = jest.spyOn(api, 'getTreeNodes').mockResolvedValue([]);
    // the personal space's usage under the tree (its own tests are in folder/FolderView.test.tsx)
    jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 0, recycleBin: 0, uploading: 0 });
    jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 0, unlimited: true });
    renderFiles();
    await screen.findByText('季度报告.docx');
    await waitFor(() => expect(screen.getByRole('complementary', { name: '文件夹目录' })).toHaveTextContent('个人文件'));
    treeNodes.mockClear();

    act(() => settle({ folderIds: ['10'], withFolders: true }));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(treeNodes).toHaveBeenCalledWith('10'));
  });

  it('stops listening once the page is left', async () => {
    const { unmount } = renderFiles();
    await screen.findByText('季度报告.docx');
    unmount();
    act(() => settle({ folderIds: ['10'], withFolders: true }));
    expect(mocks.getItems).toHaveBeenCalledTimes(1);
  });
});
