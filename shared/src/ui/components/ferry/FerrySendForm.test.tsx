// 发送文件 of the file ferry: what the form asks for, what it sends, how it explains a blocked
// request, and how uploaded files join the chosen ones.
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  api,
  FERRY_CHANGED_EVENT,
  registerUploadService,
  type FolderItems,
  type Item,
  type UploadService,
  type UploadsSettledEvent,
} from '@app/shared';
import {
  button,
  ferryDetail,
  ferryFile,
  ferryZones,
  folderFile,
  panelOf,
  pickOption,
  renderWithProviders,
  toasts,
  useInlineStylesOnly,
} from '@app/shared/test';
import { FerrySendForm, type FerrySendFormProps } from './FerrySendForm';


useInlineStylesOnly();
// antd's injected styles make ByRole's visibility check slow in jsdom (see remote-workflow's harness)
configure({ defaultHidden: true });
jest.setTimeout(60_000);

const listing = (files: Item[]): FolderItems => ({
  folder: { ...folderFile('50', '文件摆渡'), type: 'folder' },
  items: { data: files, total: files.length },
});

const old = folderFile('51', '旧报告.pdf', 4096);

let getItems: jest.SpyInstance;
beforeEach(() => {
  getItems = jest.spyOn(api, 'getItems').mockResolvedValue(listing([old]));
});
afterEach(() => {
  jest.restoreAllMocks();
  registerUploadService(null);
});

function renderForm(props: Partial<FerrySendFormProps> = {}) {
  const onSubmitted = jest.fn();
  renderWithProviders(<FerrySendForm zones={ferryZones()} allowPick={false} onSubmitted={onSubmitted} {...props} />, { session: true });
  return { onSubmitted };
}

const submit = () => fireEvent.click(button(document.body, '提交摆渡申请'));
const chosen = () => screen.queryByLabelText('已选文件', { selector: 'ul' });
const recentList = () => screen.getByLabelText('上传文件夹中的文件', { selector: '[role="list"]' });

function addRecipient(name: string) {
  const input = screen.getByLabelText('接收人');
  fireEvent.change(input, { target: { value: name } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('FerrySendForm', () => {
  it('refuses an empty form in Chinese, then sends exactly the files, the zone, the recipients and the reason', async () => {
    const create = jest.spyOn(api, 'createFerryTask').mockResolvedValue({ taskId: 't9', instanceId: 'i9', status: 'pending' });
    const changed = jest.fn();
    window.addEventListener(FERRY_CHANGED_EVENT, changed);
    const { onSubmitted } = renderForm();

    // the upload folder's recent files, newest first
    expect(await within(recentList()).findByText('旧报告.pdf')).toBeInTheDocument();
    expect(getItems).toHaveBeenCalledWith('50', { page: 1, pageSize: 50, sortField: 'updatedAt', sortOrder: 'desc' }, { errorMode: 'none' });
    // simple mode: no spaces to pick from, only uploads
    expect(screen.queryByText('从空间选择')).not.toBeInTheDocument();
    expect(button(document.body, '上传新文件')).toBeInTheDocument();
    expect(screen.getByText('从「内网」发送')).toBeInTheDocument();

    submit();
    expect(await screen.findByText('请选择要摆渡的文件')).toBeInTheDocument();
    expect(screen.getByText('请选择目标网络区域', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(screen.getByText('请填写接收人')).toBeInTheDocument();
    expect(screen.getByText('请填写摆渡原因')).toBeInTheDocument();

    // a reason of spaces is no reason
    fireEvent.change(screen.getByLabelText('摆渡原因'), { target: { value: '    ' } });
    submit();
    await waitFor(() => expect(screen.getByText('请填写摆渡原因')).toBeInTheDocument());
    expect(create).not.toHaveBeenCalled();

    fireEvent.click(within(recentList()).getByLabelText(/旧报告\.pdf/));
    expect(await screen.findByLabelText('已选文件', { selector: 'ul' })).toHaveTextContent('旧报告.pdf');
    await waitFor(() => expect(screen.queryByText('请选择要摆渡的文件')).not.toBeInTheDocument());
    await pickOption(screen.getByLabelText('目标网络区域'), '外网');
    addRecipient(' wangwu ');
    addRecipient('zhaoliu');
    addRecipient('wangwu');
    fireEvent.change(screen.getByLabelText('摆渡原因'), { target: { value: '  向合作方提交季度报告  ' } });
    expect(screen.getByText('14 / 500')).toBeInTheDocument();

    submit();
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith({ fileIds: ['51'], targetZone: '外网', recipients: ['wangwu', 'zhaoliu'], reason: '向合作方提交季度报告' });
    await waitFor(() => expect(toasts()).toContain('已提交摆渡申请，等待审批'));
    expect(onSubmitted).toHaveBeenCalledWith({ taskId: 't9', instanceId: 'i9', status: 'pending' });
    expect(changed).toHaveBeenCalledTimes(1);
    // a fresh form for the next request
    await waitFor(() => expect(chosen()).not.toBeInTheDocument());
    expect(screen.getByLabelText('摆渡原因')).toHaveValue('');
    window.removeEventListener(FERRY_CHANGED_EVENT, changed);
  });

  it('refuses a recipient name over 64 characters', async () => {
    const create = jest.spyOn(api, 'createFerryTask');
    renderForm();
    await within(recentList()).findByText('旧报告.pdf');
    addRecipient('x'.repeat(65));
    expect(await screen.findByText(`接收人不能超过 64 个字符：${'x'.repeat(65)}`)).toBeInTheDocument();
    submit();
    await screen.findByText('请填写摆渡原因');
    expect(create).not.toHaveBeenCalled();
  });

  it('a blocked request names the blocked file with the failing check instead of a success toast', async () => {
    jest.spyOn(api, 'createFerryTask').mockResolvedValue({ taskId: 't2', instanceId: '', status: 'blocked' });
    const getTask = jest.spyOn(api, 'getFerryTask').mockResolvedValue(
      ferryDetail({
        taskId: 't2',
        number: 'BD20261124000013',
        status: 'blocked',
        instanceId: '',
        statusReason: '1 个文件未通过检查',
        files: [
          ferryFile({ fileId: '51', name: '旧报告.pdf' }),
          ferryFile({
            fileId: '52',
            name: '安装包.pdf',
            detectedType: 'exe',
            blocked: true,
            checks: [
              { name: 'type', result: 'failed', message: '实际类型为 exe，不在允许的类型中' },
              { name: 'size', result: 'passed', message: '' },
            ],
          }),
        ],
      }),
    );
    const setup = folderFile('52', '安装包.pdf', 9000);
    getItems.mockResolvedValue(listing([setup, old]));
    const { onSubmitted } = renderForm({ zones: ferryZones({ targets: ['外网'] }) });

    fireEvent.click(await within(recentList()).findByLabelText(/旧报告\.pdf/));
    fireEvent.click(within(recentList()).getByLabelText(/安装包\.pdf/));
    // the only target is chosen already
    addRecipient('wangwu');
    fireEvent.change(screen.getByLabelText('摆渡原因'), { target: { value: '提交资料' } });
    submit();

    const alert = await screen.findByText('摆渡申请已被拦截（BD20261124000013）');
    const box = alert.closest('.ant-alert') as HTMLElement;
    expect(getTask).toHaveBeenCalledWith('t2', { errorMode: 'none' });
    const blocked = within(box).getByLabelText('被拦截的文件');
    expect(blocked.querySelectorAll('li')).toHaveLength(1);
    expect(blocked).toHaveTextContent('安装包.pdf：文件类型：实际类型为 exe，不在允许的类型中');
    expect(toasts()).not.toContain('已提交摆渡申请，等待审批');
    expect(onSubmitted).not.toHaveBeenCalled();
    // the form keeps its values; the blocked file can be taken out in one click
    expect(chosen()).toHaveTextContent('安装包.pdf');
    fireEvent.click(button(box, '移除被拦截的文件'));
    await waitFor(() => expect(chosen()).not.toHaveTextContent('安装包.pdf'));
    expect(chosen()).toHaveTextContent('旧报告.pdf');
    expect(screen.queryByText(/摆渡申请已被拦截/)).not.toBeInTheDocument();
  });

  it('uploads new files into the ferry folder and adds them to the chosen files once the queue settles', async () => {
    const listeners = new Set<(e: UploadsSettledEvent) => void>();
    const enqueue = jest.fn().mockResolvedValue(undefined);
    const service: UploadService = {
      enqueue,
      onSettled: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    registerUploadService(service);
    renderForm();
    await within(recentList()).findByText('旧报告.pdf');

    const input = document.querySelector('input[data-ferry-upload]') as HTMLInputElement;
    expect(input).toHaveAttribute('multiple');
    const a = new File(['a'], '新方案.docx');
    const b = new File(['b'], '附表.xlsx');
    Object.defineProperty(input, 'files', { configurable: true, value: [a, b] });
    fireEvent.change(input);
    await waitFor(() => expect(enqueue).toHaveBeenCalledWith([a, b], { wjFileId: '50', type: 2 }));
    expect(screen.getByText('上传的文件完成后自动加入摆渡文件，进度见上传面板')).toBeInTheDocument();

    getItems.mockResolvedValue(
      listing([
        folderFile('60', '新方案.docx', 2048, { updatedAt: '2026-11-24 10:00:00' }),
        folderFile('61', '附表.xlsx', 1024, { updatedAt: '2026-11-24 10:00:01' }),
        old,
      ]),
    );
    await act(async () => listeners.forEach((l) => l({ folderIds: ['50'], withFolders: false })));
    await waitFor(() => expect(chosen()).toHaveTextContent('新方案.docx'));
    expect(chosen()).toHaveTextContent('附表.xlsx');
    expect(chosen()).not.toHaveTextContent('旧报告.pdf');
    expect(screen.getByText('共 2 个文件，3 KB')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // ticked in the folder's list too; a remove button takes one out
    expect(within(recentList()).getByLabelText(/新方案\.docx/)).toBeChecked();
    fireEvent.click(screen.getByLabelText('移除 附表.xlsx'));
    await waitFor(() => expect(chosen()).not.toHaveTextContent('附表.xlsx'));
    expect(within(recentList()).getByLabelText(/附表\.xlsx/)).not.toBeChecked();
  });

  it('with spaces, files are picked from them', async () => {
    jest.spyOn(api, 'getFolderTree').mockImplementation(async (space) =>
      space === 'Personal' ? [{ id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: false }] : [],
    );
    getItems.mockImplementation(async (id: string) =>
      id === '10' ? listing([folderFile('12', '季度报告.pdf', 2048, { parentId: '10' })]) : listing([old]),
    );
    renderForm({ allowPick: true });
    fireEvent.click(button(document.body, '从空间选择'));
    const picker = panelOf('选择要摆渡的文件');
    const files = await within(picker).findByLabelText('文件列表');
    fireEvent.click(await within(files).findByLabelText(/季度报告\.pdf/));
    fireEvent.click(button(picker, '确定'));
    expect(await screen.findByLabelText('已选文件', { selector: 'ul' })).toHaveTextContent('季度报告.pdf');
  });

  it('says when no zone may be sent to, and sends nothing', async () => {
    const create = jest.spyOn(api, 'createFerryTask');
    renderForm({ zones: ferryZones({ targets: [] }) });
    expect(await screen.findByText('暂无可发送的网络区域，请联系管理员在摆渡设置中开启方向')).toBeInTheDocument();
    expect(button(document.body, '提交摆渡申请')).toBeDisabled();
    expect(create).not.toHaveBeenCalled();
  });
});
