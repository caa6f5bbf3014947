// 批量导入 and 导出 of 系统管理 › 用户: a file with bad rows lists each line and reason and cannot
// be applied; choosing the file again (the mode kept) gives a clean plan whose counts are shown
// and whose 应用导入 writes it; 全量同步 names how many people it disables and asks first; the
// generated initial passwords are shown once and exported as a CSV with a BOM; the templates and
// the export download through a frame.
import { useState } from 'react';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOWNLOAD_FRAME_ATTR, type ImportPlan, type ImportResult } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { button, panelOf, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { ExportMenu, EXPORT_TIP } from './ExportMenu';
import { ImportDialog } from './ImportDialog';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

afterEach(() => {
  jest.restoreAllMocks();
  document.querySelectorAll(`[${DOWNLOAD_FRAME_ATTR}]`).forEach((f) => f.remove());
});

const plan = (o: Partial<ImportPlan> = {}): ImportPlan => ({
  importId: 'imp-1',
  mode: 'upsert',
  total: 0,
  errors: [],
  adds: 0,
  updates: 0,
  unchanged: 0,
  disables: 0,
  departmentsToCreate: [],
  samples: { adds: [], updates: [], disables: [] },
  ...o,
});

const result = (o: Partial<ImportResult> = {}): ImportResult => ({ added: 0, updated: 0, disabled: 0, departmentsCreated: 0, passwords: [], ...o });

function Harness({ onApplied }: { onApplied: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        打开导入
      </button>
      <ImportDialog open={open} onClose={() => setOpen(false)} onApplied={onApplied} />
    </>
  );
}

function setup() {
  const onApplied = jest.fn();
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  const view = renderWithProviders(<Harness onApplied={onApplied} />, { session: { userInfo: { isAdmin: true } } });
  const dialog = () => panelOf('批量导入用户');
  const choose = (name = 'people.xlsx') =>
    user.upload(view.container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement, new File(['用户名\nzhangsan'], name));
  return { user, onApplied, dialog, choose };
}

/** The open confirmation titled `title` (antd also renders a hidden dialog title with the text). */
const confirmOf = (title: string) => screen.getByText(title, { selector: '.ant-modal-confirm-title' }).closest('.ant-modal') as HTMLElement;
const noConfirm = (title: string) => waitFor(() => expect(screen.queryAllByText(title, { selector: '.ant-modal-confirm-title' })).toHaveLength(0));

const statistic = (scope: HTMLElement, title: string) => within(scope).getByText(title, { selector: '.ant-statistic-title' }).closest('.ant-statistic')?.textContent;

describe('ImportDialog', () => {
  it('lists the bad rows without applying, and applies a clean file chosen again in the same mode', async () => {
    const { user, onApplied, dialog, choose } = setup();
    const check = jest
      .spyOn(adminApi, 'checkImport')
      .mockResolvedValueOnce(
        plan({
          mode: 'sync',
          total: 9,
          errors: [
            { line: 3, userName: 'zhangsan', column: '邮箱', reason: '邮箱格式不正确' },
            { line: 5, userName: '', column: '用户名', reason: '用户名不能为空' },
            { line: 8, userName: 'lisi', column: '角色', reason: '没有名为“超级管理员”的角色' },
          ],
        }),
      )
      .mockResolvedValueOnce(
        plan({
          importId: 'imp-2',
          mode: 'sync',
          total: 15,
          adds: 12,
          updates: 2,
          unchanged: 1,
          departmentsToCreate: ['总部/研发中心/前端组'],
          samples: { adds: ['wangwu', 'zhaoliu'], updates: [{ userName: 'lisi', changes: ['部门：市场部 → 研发中心', '手机'] }], disables: [] },
        }),
      );
    const apply = jest.spyOn(adminApi, 'applyImport').mockResolvedValue(result({ added: 12, updated: 2, departmentsCreated: 1 }));

    expect(button(dialog(), '检查')).toBeDisabled();
    await user.click(within(dialog()).getByRole('radio', { name: /全量同步/ }));
    await choose();
    await user.click(button(dialog(), '检查'));

    expect(await within(dialog()).findByText('共 3 行有问题，未写入任何数据。请修改文件后重新上传。')).toBeInTheDocument();
    expect(check).toHaveBeenCalledWith(expect.any(File), 'people.xlsx', 'sync');
    const rows = within(dialog()).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['3', '5', '8']);
    expect(within(dialog()).getByText('邮箱格式不正确')).toBeInTheDocument();
    expect(within(dialog()).getByText('用户名不能为空')).toBeInTheDocument();
    expect(within(dialog()).getByText('没有名为“超级管理员”的角色')).toBeInTheDocument();
    expect(within(dialog()).queryByText(/应\s*用\s*导\s*入/)).not.toBeInTheDocument();

    await user.click(button(dialog(), '重新选择文件'));
    expect(within(dialog()).getByRole('radio', { name: /全量同步/ })).toBeChecked();
    expect(button(dialog(), '检查')).toBeDisabled();
    await choose('people-fixed.csv');
    await user.click(button(dialog(), '检查'));

    await within(dialog()).findByText('将新建的部门');
    expect(check).toHaveBeenLastCalledWith(expect.any(File), 'people-fixed.csv', 'sync');
    expect(statistic(dialog(), '新增')).toContain('12');
    expect(statistic(dialog(), '更新')).toContain('2');
    expect(statistic(dialog(), '无变化')).toContain('1');
    expect(statistic(dialog(), '停用')).toContain('0');
    expect(within(dialog()).getByText('总部/研发中心/前端组')).toBeInTheDocument();
    expect(within(dialog()).getByText('新增用户（前 2 个）')).toBeInTheDocument();
    expect(within(dialog()).getByText('wangwu、zhaoliu 等 12 人')).toBeInTheDocument();
    expect(within(dialog()).getByText('lisi：部门：市场部 → 研发中心；手机')).toBeInTheDocument();

    // nobody is disabled: written without a confirmation
    await user.click(button(dialog(), '应用导入'));
    expect(await within(dialog()).findByText('导入完成')).toBeInTheDocument();
    expect(apply).toHaveBeenCalledWith('imp-2', 0);
    expect(onApplied).toHaveBeenCalledTimes(1);
    expect(within(dialog()).getByText('新增 12 人，更新 2 人，停用 0 人，新建部门 1 个')).toBeInTheDocument();
    expect(within(dialog()).queryByText('导出初始密码 (CSV)')).not.toBeInTheDocument();
  });

  it('asks before 全量同步 disables people, and cancelling writes nothing', async () => {
    const { user, onApplied, dialog, choose } = setup();
    jest.spyOn(adminApi, 'checkImport').mockResolvedValue(
      plan({ mode: 'sync', total: 20, unchanged: 20, disables: 5, samples: { adds: [], updates: [], disables: ['a1', 'a2', 'a3', 'a4', 'a5'] } }),
    );
    const apply = jest.spyOn(adminApi, 'applyImport').mockResolvedValue(result({ disabled: 5 }));

    await user.click(within(dialog()).getByRole('radio', { name: /全量同步/ }));
    await choose();
    await user.click(button(dialog(), '检查'));
    expect(await within(dialog()).findByText('a1、a2、a3、a4、a5')).toBeInTheDocument();
    expect(statistic(dialog(), '停用')).toContain('5');

    await user.click(button(dialog(), '应用导入'));
    const confirmPanel = await waitFor(() => confirmOf('确认停用 5 个用户？'));
    expect(within(confirmPanel).getByText('这些用户不在导入文件中，将被停用（账号保留，可随时启用）。')).toBeInTheDocument();
    await user.click(button(confirmPanel, '取消'));
    await noConfirm('确认停用 5 个用户？');
    expect(apply).not.toHaveBeenCalled();
    expect(onApplied).not.toHaveBeenCalled();

    await user.click(button(dialog(), '应用导入'));
    await user.click(button(await waitFor(() => confirmOf('确认停用 5 个用户？')), '停用并导入'));
    expect(await within(dialog()).findByText('新增 0 人，更新 0 人，停用 5 人，新建部门 0 个')).toBeInTheDocument();
    expect(apply).toHaveBeenCalledWith('imp-1', 5);
    expect(onApplied).toHaveBeenCalledTimes(1);
  });

  it('shows the initial passwords once and exports them as a CSV with a BOM', async () => {
    const { user, dialog, choose } = setup();
    const check = jest.spyOn(adminApi, 'checkImport').mockResolvedValue(plan({ total: 2, adds: 2, samples: { adds: ['zhangsan', 'wang,wu'], updates: [], disables: [] } }));
    jest.spyOn(adminApi, 'applyImport').mockResolvedValue(
      result({
        added: 2,
        passwords: [
          { userName: 'zhangsan', nickName: '张三', initialPassword: 'Xk7#pq9w' },
          { userName: 'wang,wu', nickName: '王五', initialPassword: 'aB3"zz01' },
        ],
      }),
    );
    const blobs: Blob[] = [];
    const createObjectURL = jest.fn((b: Blob) => {
      blobs.push(b);
      return 'blob:passwords';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('初始密码.csv');
      expect(this.getAttribute('href')).toBe('blob:passwords');
    });

    try {
      await choose();
      await user.click(button(dialog(), '检查'));
      await user.click(await within(dialog()).findByRole('button', { name: /应\s*用\s*导\s*入/ }));

      expect(await within(dialog()).findByText('初始密码只显示这一次，请立即导出并通过安全渠道转交本人；首次登录须修改密码。')).toBeInTheDocument();
      expect(check).toHaveBeenCalledWith(expect.any(File), 'people.xlsx', 'upsert');
      expect(within(dialog()).getByText('Xk7#pq9w')).toBeInTheDocument();
      expect(within(dialog()).getByText('aB3"zz01')).toBeInTheDocument();

      // closing before exporting warns that the passwords are gone afterwards
      await user.click(button(dialog(), '完成'));
      await user.click(button(await waitFor(() => confirmOf('初始密码尚未导出')), '返回'));
      expect(within(dialog()).getByText('Xk7#pq9w')).toBeInTheDocument();

      await user.click(button(dialog(), '导出初始密码 (CSV)'));
      expect(click).toHaveBeenCalledTimes(1);
      expect(blobs).toHaveLength(1);
      const bytes = await new Promise<Uint8Array>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
        reader.onerror = reject;
        reader.readAsArrayBuffer(blobs[0]);
      });
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(Buffer.from(bytes.slice(3)).toString('utf8')).toBe('用户名,昵称,初始密码\r\nzhangsan,张三,Xk7#pq9w\r\n"wang,wu",王五,"aB3""zz01"\r\n');

      // exported: closes at once, and opening again starts over without the passwords
      await user.click(button(dialog(), '完成'));
      await noConfirm('初始密码尚未导出');
      await user.click(screen.getByRole('button', { name: '打开导入' }));
      await waitFor(() => expect(within(dialog()).queryByText('Xk7#pq9w')).not.toBeInTheDocument());
      expect(within(dialog()).getByText('点击或将文件拖到此处')).toBeInTheDocument();
      expect(button(dialog(), '检查')).toBeDisabled();
    } finally {
      delete (URL as { createObjectURL?: unknown }).createObjectURL;
      delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
    }
  });

  it('downloads the templates through a frame', async () => {
    const { user, dialog } = setup();
    await user.click(within(dialog()).getByRole('button', { name: /下载 Excel 模板/ }));
    await user.click(within(dialog()).getByRole('button', { name: /下载 CSV 模板/ }));
    const frames = Array.from(document.querySelectorAll(`iframe[${DOWNLOAD_FRAME_ATTR}]`)).map((f) => f.getAttribute('src'));
    expect(frames).toEqual(['/api/Admin/Users/Import/Template?format=xlsx', '/api/Admin/Users/Import/Template?format=csv']);
  });
});

describe('ExportMenu', () => {
  it('exports the people of the current filters as Excel or CSV', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderWithProviders(<ExportMenu filter={{ keyword: '张', deptId: 'd2', status: 'enabled' }} />, { session: true });
    const trigger = screen.getByRole('button', { name: /导\s*出/ });
    await user.hover(trigger);
    expect(await screen.findByText(EXPORT_TIP)).toBeInTheDocument();

    await user.click(trigger);
    await user.click(await screen.findByText('导出为 CSV'));
    await user.click(trigger);
    await user.click(await screen.findByText('导出为 Excel'));
    const frames = Array.from(document.querySelectorAll(`iframe[${DOWNLOAD_FRAME_ATTR}]`)).map((f) => f.getAttribute('src'));
    expect(frames).toEqual([
      `/api/Admin/Users/Export?format=csv&keyword=${encodeURIComponent('张')}&deptId=d2&status=enabled`,
      `/api/Admin/Users/Export?format=xlsx&keyword=${encodeURIComponent('张')}&deptId=d2&status=enabled`,
    ]);
  });
});
