import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { file, folder, mockFilesPage, ok, renderFiles, rowOf } from '../__tests__/filesPage';
import { api, type Item, type OperationResult } from '@app/shared';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(60_000);

const mocks = mockFilesPage();

describe('移动到 / 复制到', () => {
  const tree = [
    { id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: true },
    { id: '11', parentId: '10', name: '项目文档', idPath: '2/10/11', namePath: '个人文件/项目文档', hasChildren: true },
  ];
  const publicTree = [{ id: '20', parentId: null, name: '企业文件', idPath: '1/20', namePath: '企业文件', hasChildren: false }];
  const conflict: OperationResult = {
    conflictType: 1,
    conflictInfo: { fileName: '季度报告.docx' },
    conflictStrategies: [
      { name: '覆盖', value: 1 },
      { name: '重命名', value: 2 },
      { name: '跳过', value: 3 },
    ],
    items: [],
  };

  beforeEach(() => {
    jest.spyOn(api, 'getFolderTree').mockImplementation(async (space) => (space === 'Personal' ? tree : publicTree));
  });

  it('picks a folder from the lazily loaded tree, retries with the chosen strategy after a conflict and refreshes', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const nodes = jest
      .spyOn(api, 'getTreeNodes')
      .mockResolvedValue([{ id: '14', parentId: '11', name: '归档', idPath: '2/10/11/14', namePath: '个人文件/项目文档/归档', hasChildren: false }]);
    const done: OperationResult = { conflictType: 0, conflictInfo: null, conflictStrategies: [], items: [{ ...file, name: '季度报告（1）.docx' } as Item] };
    const move = jest.spyOn(api, 'moveFiles').mockResolvedValueOnce(conflict).mockResolvedValueOnce(done);
    renderFiles();
    await screen.findByText('季度报告.docx');

    await user.click(within(rowOf('季度报告.docx')).getByText('移动到'));
    const picker = await screen.findByRole('dialog');
    expect(within(picker).getByText('移动到')).toBeInTheDocument();
    expect(await within(picker).findByText('企业文件')).toBeInTheDocument();
    expect(ok(picker)).toBeDisabled();

    // expand 项目文档: its children are loaded on demand
    const docsNode = (await within(picker).findByText('项目文档')).closest('.ant-tree-treenode') as HTMLElement;
    await user.click(docsNode.querySelector('.ant-tree-switcher') as HTMLElement);
    await waitFor(() => expect(nodes).toHaveBeenCalledWith('11'));
    await user.click(await within(picker).findByText('归档'));
    await user.click(ok(picker));

    await waitFor(() => expect(move).toHaveBeenCalledWith({ ids: ['12'], targetId: '14' }));

    // the conflict dialog names the file and offers the server's strategies
    expect(await screen.findByText('文件名重复')).toBeInTheDocument();
    const dialog = screen.getByText('文件名重复').closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('radio', { name: '重命名' }));
    expect(within(dialog).getByLabelText('重命名为')).toHaveValue('季度报告（1）');
    await user.click(ok(dialog));

    await waitFor(() =>
      expect(move).toHaveBeenLastCalledWith({ ids: ['12'], targetId: '14', strategy: 2, newFileName: '季度报告（1）.docx' }),
    );
    expect(await screen.findByText('移动成功')).toBeInTheDocument();
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
  });

  it('copies the selected items with 跳过 for every conflict', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const copy = jest
      .spyOn(api, 'copyFiles')
      .mockResolvedValueOnce(conflict)
      .mockResolvedValueOnce({ conflictType: 0, conflictInfo: null, conflictStrategies: [], items: [] });
    renderFiles();
    await screen.findByText('季度报告.docx');

    await user.click(screen.getByRole('checkbox', { name: '选择 项目文档' }));
    await user.click(screen.getByRole('checkbox', { name: '选择 季度报告.docx' }));
    await user.click(screen.getByRole('button', { name: /复制到/ }));
    const picker = await screen.findByRole('dialog');
    await user.click(await within(picker).findByText('企业文件'));
    await user.click(ok(picker));
    await waitFor(() => expect(copy).toHaveBeenCalledWith({ ids: ['11', '12'], targetId: '20' }));

    const dialog = (await screen.findByText('文件名重复')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('radio', { name: '跳过' }));
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(ok(dialog));
    await waitFor(() => expect(copy).toHaveBeenLastCalledWith({ ids: ['11', '12'], targetId: '20', strategy: 3 }));
    expect(await screen.findByText('复制成功')).toBeInTheDocument();
  });
});
