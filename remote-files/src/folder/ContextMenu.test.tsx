import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, formatBytes, type FolderSize } from '@app/shared';
import { oplogApi } from '@app/shared/admin';
import { file, folder, mockFilesPage, renderFiles, rowOf } from '../__tests__/filesPage';
import { item, page, personalRoot, WRITE } from '../__tests__/fixtures';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

/** Level 2 (预览 and 下载) as the server lists it. */
const VIEWER = ['view', 'download', 'copy'];

const openMenuOn = async (target: HTMLElement) => {
  fireEvent.contextMenu(target);
  return screen.findByRole('menu', { name: /操作/ });
};
const entries = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((m) => m.textContent);
const checkbox = (name: string) => screen.getByRole('checkbox', { name: `选择 ${name}` });

describe('右键菜单', () => {
  it('offers an editor every action the file and the folder allow, and selects the row', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');

    const menu = await openMenuOn(screen.getByText('季度报告.docx'));
    expect(entries(menu)).toEqual(['预览', '下载', '分享', '重命名', '复制到', '移动到', '收藏', '标签', '创建快捷方式', '历史版本', '删除']);
    expect(checkbox('季度报告.docx')).toBeChecked();
    expect(screen.getByText('已选 1 项')).toBeInTheDocument();

    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(menu.closest('.ant-dropdown')).toHaveClass('ant-dropdown-hidden'));

    const folderMenu = await openMenuOn(rowOf('项目文档'));
    expect(entries(folderMenu)).toEqual(['打开', '下载', '分享', '重命名', '复制到', '移动到', '收藏', '标签', '创建快捷方式', '计算大小', '删除']);
    // a right click elsewhere moves the selection
    expect(checkbox('项目文档')).toBeChecked();
    expect(checkbox('季度报告.docx')).not.toBeChecked();
  });

  it('offers a viewer only what reading allows', async () => {
    mocks.getItems.mockResolvedValue(
      page({ ...personalRoot, permissions: VIEWER }, [
        { ...folder, permissions: VIEWER },
        { ...file, permissions: VIEWER },
      ]),
    );
    renderFiles();
    await screen.findByText('季度报告.docx');

    expect(entries(await openMenuOn(screen.getByText('季度报告.docx')))).toEqual(['预览', '下载', '分享', '复制到', '收藏', '标签', '创建快捷方式', '历史版本']);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(entries(await openMenuOn(screen.getByText('项目文档')))).toEqual(['打开', '下载', '分享', '复制到', '收藏', '标签', '创建快捷方式', '计算大小']);
  });

  it('offers 权限设置 on enterprise items the user manages', async () => {
    const managed = item({ id: '21', name: '制度汇编.pdf', extension: 'pdf', idPath: '1/20/21', spaceType: 1, permissions: [...WRITE, 'version', 'manage'] });
    mocks.getItems.mockResolvedValue(page(personalRoot, [managed]));
    renderFiles();
    await screen.findByText('制度汇编.pdf');
    expect(entries(await openMenuOn(screen.getByText('制度汇编.pdf')))).toContain('权限设置');
  });

  it('offers 文件动态 on items the user manages and shows who did what to them', async () => {
    const managed = item({ id: '31', name: '合同.pdf', extension: 'pdf', idPath: '2/30/31', permissions: [...WRITE, 'version', 'manage'] });
    mocks.getItems.mockResolvedValue(page(personalRoot, [managed]));
    const activity = jest.spyOn(oplogApi, 'getItemActivity').mockResolvedValue({
      data: [
        {
          id: '9', seq: 9, at: 0, time: '2026-11-26 10:00:00', userId: '3', userName: 'lisi', deptPath: '', onBehalfName: '', ip: '10.0.0.3',
          userAgent: '', device: '', action: 'file.download', actionName: '下载', objectType: 'file', objectId: '31', objectName: '合同.pdf',
          objectPath: '个人空间/合同.pdf', result: 'ok', reason: '', requestId: 'r', detail: {},
        },
      ],
      total: 1,
      more: false,
    });
    renderFiles();
    await screen.findByText('合同.pdf');
    const menu = await openMenuOn(screen.getByText('合同.pdf'));
    fireEvent.click(within(menu).getByText('文件动态'));
    const table = await screen.findByRole('table', { name: '文件动态' });
    expect(await within(table).findByText('lisi')).toBeInTheDocument();
    expect(within(table).getByText('下载')).toBeInTheDocument();
    expect(activity).toHaveBeenCalledWith('31', { page: 1, pageSize: 20 }, { errorMode: 'none' });
    activity.mockRestore();
  });

  it('keeps a selection that holds the row and offers what applies to all of it', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(checkbox('项目文档'));
    fireEvent.click(checkbox('季度报告.docx'));

    const menu = await openMenuOn(screen.getByText('季度报告.docx'));
    expect(entries(menu)).toEqual(['下载', '分享', '复制到', '移动到', '收藏', '标签', '删除']);
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();

    fireEvent.click(within(menu).getByText('删除'));
    expect(await screen.findByText('确定删除该文件（夹）吗？')).toBeInTheDocument();
  });

  it('offers 新建文件夹, 新建文件 and 刷新 on the empty area', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    const menu = await openMenuOn(screen.getByTestId('file-list-area'));
    expect(entries(menu)).toEqual(['新建文件夹', '新建文件', '刷新']);
    fireEvent.click(within(menu).getByText('刷新'));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));

    const create = jest.spyOn(api, 'createFile').mockResolvedValue(item({ id: '31', name: '说明.txt' }));
    fireEvent.click(within(await openMenuOn(screen.getByTestId('file-list-area'))).getByText('新建文件'));
    const dialog = await screen.findByRole('dialog', { name: /新建文件/ });
    fireEvent.change(within(dialog).getByLabelText('文件名称'), { target: { value: '说明.txt' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ parentId: '10', name: '说明.txt', type: 'file' }));
  });

  it('offers only 刷新 on the empty area of a folder the user cannot change', async () => {
    mocks.getItems.mockResolvedValue(page({ ...personalRoot, permissions: VIEWER }, []));
    renderFiles();
    await screen.findByText('暂无数据', { ignore: 'script, style, title' });
    expect(entries(await openMenuOn(screen.getByTestId('file-list-area')))).toEqual(['刷新']);
  });

  it('works on the tiles of the grid', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(screen.getByText('宫格'));
    const tile = await screen.findByRole('listitem', { name: '项目文档' });
    expect(entries(await openMenuOn(tile))).toContain('计算大小');
    expect(within(tile).getByRole('checkbox')).toBeChecked();
  });
});

describe('计算大小', () => {
  it('shows the size, the file count and the folder count once calculated', async () => {
    let resolve: (v: FolderSize) => void = () => {};
    const calc = jest.spyOn(api, 'calcFolderSize').mockImplementation(() => new Promise<FolderSize>((r) => (resolve = r)));
    renderFiles();
    await screen.findByText('项目文档');

    fireEvent.click(within(await openMenuOn(screen.getByText('项目文档'))).getByText('计算大小'));
    const dialog = await screen.findByRole('dialog', { name: '计算大小' });
    expect(within(dialog).getByText('正在计算…')).toBeInTheDocument();
    expect(calc).toHaveBeenCalledWith('11', expect.anything());

    await act(async () => resolve({ id: '11', size: 3 * 1024 * 1024 + 512, fileCount: 12, folderCount: 3 }));
    expect(within(dialog).getByText('大小')).toBeInTheDocument();
    expect(within(dialog).getByText(formatBytes(3 * 1024 * 1024 + 512))).toBeInTheDocument();
    expect(within(dialog).getByText('文件数').closest('tr')).toHaveTextContent('12');
    expect(within(dialog).getByText('文件夹数').closest('tr')).toHaveTextContent('3');
  });
});
