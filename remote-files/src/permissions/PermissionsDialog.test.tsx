import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, ApiError, type AccessPolicy, type DepartmentNode, type PolicyList, type UserGroup } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { item, WRITE } from '../__tests__/fixtures';
import { PermissionsDialog } from './PermissionsDialog';

useInlineStylesOnly();

jest.setTimeout(30_000);

const rules = item({
  id: '21', parentId: '20', name: '制度', type: 'folder', spaceType: 1, idPath: '1/20/21', namePath: '企业文件/制度',
  permissions: [...WRITE, 'version', 'manage'],
});

const policy = (over: Partial<AccessPolicy> & Pick<AccessPolicy, 'subjectType' | 'subjectId' | 'subjectName' | 'level'>): AccessPolicy => ({
  id: `p-${over.subjectType}-${over.subjectId}`,
  createdAt: '2026-03-01 09:00:00',
  ...over,
});
const zhang = policy({ subjectType: 1, subjectId: 'u1', subjectName: '张三', level: 4 });
const rnd = policy({ subjectType: 2, subjectId: 'd2', subjectName: '研发部', level: 2 });
const editors = policy({ subjectType: 3, subjectId: 'g2', subjectName: '编辑组', level: 3 });

const inherited: PolicyList = {
  fileId: '21', inherited: true, inheritedFrom: { id: '20', name: '企业文件', namePath: '企业文件' }, policies: [zhang, rnd],
};
const defaults: PolicyList = { fileId: '21', inherited: false, inheritedFrom: null, policies: [] };
const own: PolicyList = { fileId: '21', inherited: false, inheritedFrom: null, policies: [zhang, rnd, editors] };

const departments: DepartmentNode[] = [
  { id: 'd1', name: '总公司', parentId: null, children: [
    { id: 'd2', name: '研发部', parentId: 'd1', children: [] },
    { id: 'd3', name: '市场部', parentId: 'd1', children: [] },
  ] },
];
const groups: UserGroup[] = [{ id: 'g1', name: '管理员组', memberCount: 3 }];

let getPolicies: jest.SpyInstance;
let setPolicies: jest.SpyInstance;

beforeEach(() => {
  getPolicies = jest.spyOn(api, 'getPolicies').mockResolvedValue(inherited);
  setPolicies = jest.spyOn(api, 'setPolicies').mockImplementation(async (body) => ({
    ...defaults, policies: body.policies.map((p) => policy({ ...p, subjectName: p.subjectId })),
  }));
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue(departments);
  jest.spyOn(api, 'getUserGroups').mockResolvedValue(groups);
  jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [], total: 0 });
});
afterEach(() => jest.restoreAllMocks());

function renderDialog() {
  const onClose = jest.fn();
  const onSaved = jest.fn();
  renderWithProviders(<PermissionsDialog item={rules} onClose={onClose} onSaved={onSaved} />, { session: true });
  return { onClose, onSaved };
}

/** A dialog by its title (role queries by name are slow on antd's large trees). */
const dialogTitled = (title: string) => screen.getByText(title).closest('[role="dialog"]') as HTMLElement;
const dialog = () => dialogTitled('权限设置 - 制度');
/** A button by its text or aria-label (faster than a role query on antd's large trees). */
function button(name: string | RegExp, scope: HTMLElement = dialog()): HTMLElement {
  const text = typeof name === 'string' ? new RegExp(`^${name}$`) : name;
  const found = Array.from(scope.querySelectorAll<HTMLElement>('button')).find((b) =>
    text.test(b.getAttribute('aria-label') ?? '') || text.test((b.textContent ?? '').trim()),
  );
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}
const levelSelect = (subject: string) => within(dialog()).getByLabelText(`${subject} 的权限`);
const saveButton = () => button(/保\s*存/);
const rowOf = (name: string, scope: HTMLElement = dialog()) => within(scope).getByText(name).closest('tr') as HTMLElement;

/** Picks `label` in the level select of `subject`. */
async function chooseLevel(subject: string, label: string) {
  fireEvent.mouseDown(levelSelect(subject));
  const option = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.title === label);
    if (!found) throw new Error(`option ${label} not shown`);
    return found;
  });
  fireEvent.click(option);
}

describe('权限设置', () => {
  it('shows the inherited list read-only, then copies it into an own list that is saved', async () => {
    const { onClose, onSaved } = renderDialog();
    expect(await screen.findByText('当前权限继承自「企业文件」')).toBeInTheDocument();
    expect(getPolicies).toHaveBeenCalledWith('21', true);
    expect(within(dialog()).getByText('张三')).toBeInTheDocument();
    expect(within(rowOf('研发部')).getByText('部门')).toBeInTheDocument();
    expect(within(rowOf('研发部')).getByText('下载')).toBeInTheDocument();
    expect(within(rowOf('张三')).getByText('管理')).toBeInTheDocument();
    expect(dialog().querySelector('.ant-select')).toBeNull();
    expect(within(dialog()).queryAllByText(/^移\s*除$/)).toHaveLength(0);
    expect(saveButton()).toBeDisabled();
    // the five levels are explained under the title
    const help = within(dialog()).getByLabelText('权限说明');
    expect(help.querySelectorAll('li')).toHaveLength(5);
    expect(help).toHaveTextContent('上传/编辑：');

    fireEvent.click(button('设置独立权限'));
    expect(await waitFor(() => levelSelect('研发部'))).toBeInTheDocument();
    expect(screen.queryByText('当前权限继承自「企业文件」')).not.toBeInTheDocument();
    expect(setPolicies).not.toHaveBeenCalled();

    await chooseLevel('研发部', '上传/编辑');
    fireEvent.click(saveButton());

    await waitFor(() =>
      expect(setPolicies).toHaveBeenCalledWith({
        fileId: '21',
        policies: [
          { subjectType: 1, subjectId: 'u1', level: 4 },
          { subjectType: 2, subjectId: 'd2', level: 3 },
        ],
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('explains the default access and starts an own list empty; 添加成员 adds a department once at 下载', async () => {
    getPolicies.mockResolvedValue(defaults);
    renderDialog();
    expect(await screen.findByText('当前使用企业文件的默认权限：所有成员可预览和下载')).toBeInTheDocument();

    fireEvent.click(button('设置独立权限'));
    expect(await within(dialog()).findByText('暂无成员，请点击「添加成员」')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();

    for (let round = 0; round < 2; round++) {
      fireEvent.click(button(/添加成员/));
      const picker = (await screen.findByText(/^已选择 \d+ 项$/)).closest('[role="dialog"]') as HTMLElement;
      fireEvent.click(within(picker).getByText('部门', { selector: '[role="tab"], [role="tab"] *' }));
      const tree = await waitFor(() => {
        const found = picker.querySelector<HTMLElement>('[role="tree"][aria-label="选择部门"]');
        if (!found) throw new Error('department tree not shown');
        return found;
      });
      fireEvent.click(within(tree).getByText('市场部'));
      expect(within(within(picker).getByLabelText('已选择')).getByText('市场部')).toBeInTheDocument();
      fireEvent.click(button(/确\s*定/, picker));
      await waitFor(() => expect(screen.queryByText('已选择 1 项')).not.toBeInTheDocument());
    }

    expect(dialog().querySelectorAll('.ant-select')).toHaveLength(1);
    const row = rowOf('市场部');
    expect(within(row).getByText('部门')).toBeInTheDocument();
    expect(within(row).getByTitle('下载')).toBeInTheDocument();

    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(setPolicies).toHaveBeenCalledWith({ fileId: '21', policies: [{ subjectType: 2, subjectId: 'd3', level: 2 }] }),
    );
  });

  it('edits an own list: 移除 takes an entry out of what is saved', async () => {
    getPolicies.mockResolvedValue(own);
    renderDialog();
    expect(await waitFor(() => levelSelect('编辑组'))).toBeInTheDocument();
    expect(within(rowOf('编辑组')).getByText('用户组')).toBeInTheDocument();
    expect(within(rowOf('张三')).getByText('用户')).toBeInTheDocument();

    fireEvent.click(button('移除 研发部'));
    expect(within(dialog()).queryByText('研发部')).not.toBeInTheDocument();
    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(setPolicies).toHaveBeenCalledWith({
        fileId: '21',
        policies: [
          { subjectType: 1, subjectId: 'u1', level: 4 },
          { subjectType: 3, subjectId: 'g2', level: 3 },
        ],
      }),
    );
  });

  it('恢复继承 asks first, then saves an empty list and closes', async () => {
    getPolicies.mockResolvedValue(own);
    setPolicies.mockResolvedValue(inherited);
    const { onClose, onSaved } = renderDialog();
    await waitFor(() => levelSelect('编辑组'));

    fireEvent.click(button(/恢复继承/));
    const confirm = (await screen.findByText('恢复继承后，此处单独设置的权限将被清除。')).closest('[role="dialog"]') as HTMLElement;
    expect(setPolicies).not.toHaveBeenCalled();
    fireEvent.click(button(/^确\s*定$/, confirm));

    await waitFor(() => expect(setPolicies).toHaveBeenCalledWith({ fileId: '21', policies: [] }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('drops an own list not saved yet when 恢复继承 is clicked, without asking', async () => {
    renderDialog();
    fireEvent.click(await waitFor(() => button('设置独立权限')));
    await waitFor(() => levelSelect('研发部'));
    fireEvent.click(button(/恢复继承/));
    expect(await screen.findByText('当前权限继承自「企业文件」')).toBeInTheDocument();
    expect(screen.queryByText('恢复继承后，此处单独设置的权限将被清除。')).not.toBeInTheDocument();
    expect(setPolicies).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with the edits when the server refuses', async () => {
    getPolicies.mockResolvedValue(own);
    setPolicies.mockRejectedValue(new ApiError('不能移除自己的管理权限', 40001));
    const { onClose, onSaved } = renderDialog();
    await waitFor(() => levelSelect('张三'));

    fireEvent.click(button('移除 张三'));
    fireEvent.click(saveButton());
    await waitFor(() => expect(setPolicies).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(saveButton()).not.toHaveClass('ant-btn-loading'));
    expect(dialog()).toBeInTheDocument();
    expect(within(dialog()).queryByText('张三')).not.toBeInTheDocument();
    expect(within(dialog()).getByText('研发部')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('cannot be closed while saving', async () => {
    getPolicies.mockResolvedValue(own);
    let finish: (list: PolicyList) => void = () => {};
    setPolicies.mockImplementation(() => new Promise<PolicyList>((resolve) => (finish = resolve)));
    const { onClose } = renderDialog();
    await waitFor(() => levelSelect('张三'));

    fireEvent.click(saveButton());
    await waitFor(() => expect(saveButton()).toHaveClass('ant-btn-loading'));
    expect(button(/取\s*消/)).toBeDisabled();
    fireEvent.click(button(/取\s*消/));
    expect(onClose).not.toHaveBeenCalled();

    finish(own);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});
