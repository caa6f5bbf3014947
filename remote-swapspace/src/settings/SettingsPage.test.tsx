// 摆渡设置: what the administrator sees, what 保存 sends, what is refused before sending, and
// what someone who is not an administrator sees.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, ApiError, type FerrySettings, type WorkflowDefinition } from '@app/shared';
import { button, MB, pickOption, renderPage, settingsView, toasts } from '../__tests__/adminHarness';
import SettingsPage from './SettingsPage';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(90_000);

const flow = (id: string, name: string, enabled = true) => ({ id, name, enabled }) as WorkflowDefinition;

beforeEach(() => {
  jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([flow('d1', '文件摆渡审批（加急）'), flow('d2', '研发网摆渡审批')]);
});
afterEach(() => jest.restoreAllMocks());

const section = (name: string) => screen.getByLabelText(name, { selector: 'section' });

async function open(view = settingsView()) {
  const get = jest.spyOn(api, 'getFerrySettings').mockResolvedValue(view);
  renderPage(<SettingsPage />);
  expect(await screen.findByRole('heading', { name: '摆渡设置' })).toBeInTheDocument();
  await screen.findByText('部署信息');
  expect(get).toHaveBeenCalledWith({ errorMode: 'none' });
}

describe('摆渡设置', () => {
  it('shows the deployment, the directions and every check as loaded', async () => {
    await open();
    const facts = screen.getByText('本区域').closest('.ant-descriptions') as HTMLElement;
    expect(facts).toHaveTextContent('本区域内网');
    expect(facts).toHaveTextContent('对端区域外网（摆渡目录）、研发网（HTTPS 直连）');
    expect(facts).toHaveTextContent('病毒查杀引擎ClamAV 1.0.7');
    expect(screen.queryByText('未安装 ClamAV，病毒查杀无法进行')).not.toBeInTheDocument();

    expect(screen.getByLabelText('启用 内网 → 外网')).toBeChecked();
    expect(screen.getByLabelText('启用 内网 → 研发网')).not.toBeChecked();
    const toOuter = screen.getByText('内网 → 外网').closest('tr') as HTMLElement;
    await waitFor(() => expect(toOuter).toHaveTextContent('默认（文件摆渡审批）'));
    await waitFor(() => expect(screen.getByText('内网 → 研发网').closest('tr')).toHaveTextContent('研发网摆渡审批'));

    for (const name of ['文件类型白名单', '大小限制', '数量限制', '敏感词', '病毒查杀']) expect(screen.getByLabelText(name, { selector: 'button' })).toBeChecked();
    const types = section('文件类型白名单');
    expect(types).toHaveTextContent('pdf');
    expect(types).toHaveTextContent('docx');
    expect(screen.getByLabelText('单个文件上限')).toHaveValue('100');
    expect(screen.getByLabelText('单次摆渡总大小上限')).toHaveValue('500');
    expect(screen.getByLabelText('单次摆渡文件数上限')).toHaveValue('20');
    expect(screen.getByLabelText('敏感词（每行一个）')).toHaveValue('机密\n绝密');
    expect(screen.getByLabelText('过期天数')).toHaveValue('7');
    expect(screen.getByLabelText('审计保留天数')).toHaveValue('180');
    expect(screen.getByText(/网络安全法要求网络日志至少保存六个月/)).toBeInTheDocument();
    expect(screen.queryByText(/未设置摆渡密钥/)).not.toBeInTheDocument();
  });

  it('says nothing can cross while FERRY_SECRET is not set', async () => {
    await open(settingsView({ secretConfigured: false }));
    expect(screen.getByText('未设置摆渡密钥（环境变量 FERRY_SECRET），不能收发摆渡包')).toBeInTheDocument();
  });

  it('says antivirus cannot run when ClamAV is not installed', async () => {
    await open(settingsView({ antivirusEngine: '' }));
    expect(screen.getByText('未安装 ClamAV，病毒查杀无法进行')).toBeInTheDocument();
  });

  it('gives the server’s reason when ClamAV is there but cannot scan', async () => {
    await open(settingsView({ antivirusEngine: '', antivirusMissing: '未找到 ClamAV 病毒库（/var/lib/clamav）：请运行 freshclam 或设置 CLAMAV_DB' }));
    const facts = screen.getByText('病毒查杀引擎').closest('.ant-descriptions') as HTMLElement;
    expect(facts).toHaveTextContent('病毒查杀无法进行');
    expect(facts).toHaveTextContent('未找到 ClamAV 病毒库（/var/lib/clamav）：请运行 freshclam 或设置 CLAMAV_DB');
  });

  it('switches a check off and saves exactly the settings, sizes in bytes', async () => {
    const saved = settingsView({ keywordCheck: false, maxFileSize: 200 * MB });
    const save = jest.spyOn(api, 'saveFerrySettings').mockResolvedValue(saved);
    await open();

    // 敏感词 off: its list is greyed out and still sent as it was
    fireEvent.click(screen.getByLabelText('敏感词', { selector: 'button' }));
    await waitFor(() => expect(screen.getByLabelText('敏感词（每行一个）')).toBeDisabled());
    // a per-file limit of 200 MB and 1.5 GB in all
    fireEvent.change(screen.getByLabelText('单个文件上限'), { target: { value: '200' } });
    fireEvent.change(screen.getByLabelText('单次摆渡总大小上限'), { target: { value: '1536' } });
    fireEvent.change(screen.getByLabelText('单次摆渡文件数上限'), { target: { value: '50' } });
    // the second direction on, with the default flow
    fireEvent.click(screen.getByLabelText('启用 内网 → 研发网'));
    await pickOption(screen.getByLabelText('审批流程 内网 → 研发网'), '默认（文件摆渡审批）');
    fireEvent.change(screen.getByLabelText('过期天数'), { target: { value: '14' } });
    fireEvent.change(screen.getByLabelText('审计保留天数'), { target: { value: '365' } });

    fireEvent.click(button(document.body, '保存'));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const body: FerrySettings = {
      directions: [
        { from: '内网', to: '外网', enabled: true, definitionId: '' },
        { from: '内网', to: '研发网', enabled: true, definitionId: '' },
      ],
      typeCheck: true,
      allowedTypes: ['pdf', 'docx'],
      sizeCheck: true,
      maxFileSize: 200 * MB,
      maxTotalSize: 1536 * MB,
      countCheck: true,
      maxFileCount: 50,
      keywordCheck: false,
      keywords: ['机密', '绝密'],
      antivirus: true,
      expiryDays: 14,
      auditRetentionDays: 365,
    };
    // exactly these fields: none of the read-only facts
    expect(save.mock.calls[0][0]).toStrictEqual(body);
    await waitFor(() => expect(toasts()).toContain('摆渡设置已保存（修改已记入审计日志）'));
    // the form now shows what the server keeps
    await waitFor(() => expect(screen.getByLabelText('敏感词', { selector: 'button' })).not.toBeChecked());
  });

  it('sends keywords one per line, trimmed and without blanks, and an unchanged size as it was', async () => {
    const save = jest.spyOn(api, 'saveFerrySettings').mockImplementation(async (b) => ({ ...settingsView(), ...b }));
    await open(settingsView({ maxTotalSize: 1_500_000_000 }));
    expect(screen.getByLabelText('单次摆渡总大小上限')).toHaveValue('1430.51');
    fireEvent.change(screen.getByLabelText('敏感词（每行一个）'), { target: { value: ' 机密 \n\n内部资料\r\n机密\n' } });
    fireEvent.click(button(document.body, '保存'));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0].keywords).toEqual(['机密', '内部资料']);
    // shown rounded to 1430.51 MB, sent as the bytes it was
    expect(save.mock.calls[0][0].maxTotalSize).toBe(1_500_000_000);
  });

  it('refuses an audit retention under 180 days, an expiry outside 1–365 days and an empty limit, in Chinese', async () => {
    const save = jest.spyOn(api, 'saveFerrySettings');
    await open();
    fireEvent.change(screen.getByLabelText('审计保留天数'), { target: { value: '90' } });
    fireEvent.change(screen.getByLabelText('过期天数'), { target: { value: '400' } });
    fireEvent.change(screen.getByLabelText('单次摆渡文件数上限'), { target: { value: '' } });
    fireEvent.click(button(document.body, '保存'));
    expect(await screen.findByText('审计保留天数不能少于 180 天（网络安全法要求网络日志至少保存六个月）')).toBeInTheDocument();
    expect(await screen.findByText('过期天数须为 1–365 之间的整数')).toBeInTheDocument();
    expect(await screen.findByText('单次摆渡的文件数量上限须为 1–500 之间的整数')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();

    // a check switched off no longer asks for its limit
    fireEvent.click(screen.getByLabelText('数量限制', { selector: 'button' }));
    await waitFor(() => expect(screen.queryByText('单次摆渡的文件数量上限须为 1–500 之间的整数')).not.toBeInTheDocument());
    fireEvent.change(screen.getByLabelText('审计保留天数'), { target: { value: '180' } });
    fireEvent.change(screen.getByLabelText('过期天数'), { target: { value: '30' } });
    save.mockImplementation(async (b) => ({ ...settingsView(), ...b }));
    fireEvent.click(button(document.body, '保存'));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toMatchObject({ countCheck: false, maxFileCount: 20, auditRetentionDays: 180, expiryDays: 30 });
  });

  it('refuses a whitelist with no type, a size of 0 MB, too many files and a keyword too long', async () => {
    const save = jest.spyOn(api, 'saveFerrySettings');
    await open(settingsView({ allowedTypes: [] }));
    fireEvent.change(screen.getByLabelText('单次摆渡总大小上限'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('单次摆渡文件数上限'), { target: { value: '501' } });
    fireEvent.change(screen.getByLabelText('敏感词（每行一个）'), { target: { value: `机密\n${'长'.repeat(51)}` } });
    fireEvent.click(button(document.body, '保存'));
    expect(await screen.findByText('开启文件类型白名单时请至少选择一种允许的类型')).toBeInTheDocument();
    expect(await screen.findByText('请填写单次摆渡的总大小上限（大于 0 MB）')).toBeInTheDocument();
    expect(await screen.findByText('单次摆渡的文件数量上限须为 1–500 之间的整数')).toBeInTheDocument();
    expect(await screen.findByText('每个敏感词不能超过 50 个字符')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
  });

  it('shows the server’s sentence to someone who is not an administrator', async () => {
    jest.spyOn(api, 'getFerrySettings').mockRejectedValue(new ApiError('仅管理员可以修改摆渡设置', 40301, { status: 403, serverMessage: '仅管理员可以修改摆渡设置' }));
    renderPage(<SettingsPage />);
    expect(await screen.findByText('仅管理员可以修改摆渡设置')).toBeInTheDocument();
    expect(screen.getByText('无权访问')).toBeInTheDocument();
    expect(screen.queryByText('部署信息')).not.toBeInTheDocument();
    expect(screen.queryByText(/重\s*试/)).not.toBeInTheDocument();
  });

  it('offers 重试 for any other failure', async () => {
    const get = jest.spyOn(api, 'getFerrySettings').mockRejectedValueOnce(new ApiError('服务器繁忙', 500, { status: 500 })).mockResolvedValue(settingsView());
    renderPage(<SettingsPage />);
    expect(await screen.findByText('服务器繁忙')).toBeInTheDocument();
    fireEvent.click(button(document.body, '重试'));
    expect(await screen.findByText('部署信息')).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(2);
    expect(within(document.body).queryByText('服务器繁忙')).not.toBeInTheDocument();
  });
});
