// 摆渡内容 on 流程详情: an approval started by a ferry task shows what would leave the zone (hashes,
// checks, sensitive words, preview); any other approval shows none of it.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, ApiError, type FerryTaskDetail, type WorkflowInstanceDetail } from '@app/shared';
import { ferryRow, useInlineStylesOnly } from '@app/shared/test';
import { detail, renderAt } from '../__tests__/harness';

useInlineStylesOnly();

jest.setTimeout(90_000);

afterEach(() => jest.restoreAllMocks());

const SHA_A = 'a'.repeat(60) + '0f1e';
const SHA_B = 'b'.repeat(60) + '9c8d';

const task = (over: Partial<FerryTaskDetail> = {}): FerryTaskDetail => ({
  ...ferryRow({ recipients: ['王五', '赵六'], instanceId: 'i1' }),
  files: [
    {
      fileId: 'f1',
      name: '季度报告.pdf',
      size: 2 * 1024 * 1024,
      sha256: SHA_A,
      detectedType: 'pdf',
      checks: [
        { name: 'type', result: 'passed', message: '实际类型为 pdf，在允许的类型中' },
        { name: 'size', result: 'passed', message: '2 MB，未超过 100 MB' },
        { name: 'antivirus', result: 'skipped', message: '未安装 ClamAV，未进行病毒查杀' },
      ],
      keywordHits: [],
      blocked: false,
    },
    {
      fileId: 'f2',
      name: '附录.docx',
      size: 1024 * 1024,
      sha256: SHA_B,
      detectedType: '',
      checks: [
        { name: 'type', result: 'passed', message: '实际类型为 docx' },
        { name: 'keyword', result: 'failed', message: '命中敏感词：机密' },
      ],
      keywordHits: [{ keyword: '机密', count: 3, context: '本附录属于机密资料，请勿外传（机密）' }],
      blocked: true,
    },
  ],
  events: [],
  can: { cancel: false, preview: true },
  ...over,
});

const ferryApproval = (over: Partial<WorkflowInstanceDetail> = {}) =>
  detail({ source: 'ferry', sourceId: 't1', title: '文件摆渡-张三-BD20261124000012', definitionName: '文件摆渡审批', fields: [], files: [], ...over });

async function open(d: WorkflowInstanceDetail) {
  jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(d);
  renderAt(`/workflow/informationDetails?id=${d.instanceId}`);
  expect(await screen.findByRole('heading', { name: d.title })).toBeInTheDocument();
}

const panel = () => screen.getByLabelText('摆渡内容', { selector: 'section' });
const fileOf = (name: string) => within(panel()).getByLabelText(name, { selector: 'li' });

describe('摆渡内容', () => {
  it('shows where the files go, their hashes, every check and the sensitive words found', async () => {
    const get = jest.spyOn(api, 'getFerryTask').mockResolvedValue(task());
    await open(ferryApproval());
    await waitFor(() => expect(panel()).toHaveTextContent('BD20261124000012'));
    expect(get).toHaveBeenCalledWith('t1', { errorMode: 'none' });
    expect(panel()).toHaveTextContent('目标区域外网（由 内网 发出）');
    expect(panel()).toHaveTextContent('接收人王五、赵六');
    expect(panel()).toHaveTextContent('摆渡事由向合作方提交季度报告');
    expect(panel()).toHaveTextContent('摆渡状态审批中');
    expect(panel()).toHaveTextContent('文件2 个，共 3 MB');

    const report = fileOf('季度报告.pdf');
    expect(report).toHaveTextContent('2 MB');
    const hash = within(report).getByTestId('sha256');
    expect(hash).toHaveTextContent(SHA_A);
    expect(hash.style.fontFamily).toMatch(/monospace/);
    expect(hash.querySelector('.ant-typography-copy')).toBeInTheDocument();
    expect(report).toHaveTextContent('实际类型pdf');
    // green passed, grey skipped; the message is the tooltip
    const typeTag = within(report).getByText('文件类型 通过');
    expect(typeTag).toHaveClass('ant-tag-green');
    const avTag = within(report).getByText('病毒查杀 未检查');
    expect(avTag).toHaveClass('ant-tag-default');
    expect(avTag).toHaveAttribute('aria-label', '病毒查杀：未检查。未安装 ClamAV，未进行病毒查杀');
    fireEvent.mouseEnter(avTag);
    expect(await screen.findByText('未安装 ClamAV，未进行病毒查杀', { selector: '.ant-tooltip *' })).toBeInTheDocument();
    expect(within(report).queryByLabelText('敏感词命中')).not.toBeInTheDocument();
    expect(within(report).queryByText('已拦截')).not.toBeInTheDocument();

    const appendix = fileOf('附录.docx');
    expect(within(appendix).getByTestId('sha256')).toHaveTextContent(SHA_B);
    expect(appendix).toHaveTextContent('实际类型未能识别');
    expect(within(appendix).getByText('敏感词 未通过')).toHaveClass('ant-tag-red');
    expect(within(appendix).getByText('已拦截')).toBeInTheDocument();
    const hit = within(appendix).getByTestId('keyword-hit');
    expect(hit).toHaveTextContent('机密 ×3');
    expect(hit).toHaveTextContent('“本附录属于机密资料，请勿外传（机密）”');
    expect(Array.from(hit.querySelectorAll('mark')).map((m) => m.textContent)).toEqual(['机密', '机密']);
  });

  it('预览 asks the server for the submitted version and opens it', async () => {
    jest.spyOn(api, 'getFerryTask').mockResolvedValue(task());
    const preview = jest.spyOn(api, 'previewFerryFile').mockResolvedValue({ url: '/api/Ferry/FerryFiles/t1/f1/Content', name: '季度报告.pdf', detectedType: 'pdf' });
    const open_ = jest.spyOn(window, 'open').mockImplementation(() => null);
    await open(ferryApproval());
    const button = await within(panel()).findByLabelText('预览 季度报告.pdf');
    fireEvent.click(button);
    await waitFor(() => expect(preview).toHaveBeenCalledWith({ taskId: 't1', fileId: 'f1' }));
    await waitFor(() => expect(open_).toHaveBeenCalledWith('/api/Ferry/FerryFiles/t1/f1/Content', '_blank', 'noopener,noreferrer'));
  });

  it('offers no 预览 when the server does not allow it', async () => {
    jest.spyOn(api, 'getFerryTask').mockResolvedValue(task({ status: 'delivered', can: { cancel: false, preview: false } }));
    await open(ferryApproval({ status: 2, finishedAt: '2026-11-25 10:00:00', currentStep: '', pending: [] }));
    await waitFor(() => expect(panel()).toHaveTextContent('摆渡状态已送达'));
    expect(within(panel()).queryByLabelText(/^预览/)).not.toBeInTheDocument();
    expect(within(fileOf('季度报告.pdf')).getByTestId('sha256')).toHaveTextContent(SHA_A);
  });

  it('says so when the ferry task cannot be seen, and keeps the rest of the approval', async () => {
    jest.spyOn(api, 'getFerryTask').mockRejectedValue(new ApiError('摆渡任务不存在', 404, { status: 404 }));
    await open(ferryApproval());
    expect(await within(panel()).findByText('摆渡任务不存在，或你没有查看它的权限')).toBeInTheDocument();
    expect(screen.getByLabelText('审批步骤', { selector: 'section' })).toBeInTheDocument();
  });

  it('is not there for an ordinary approval', async () => {
    const get = jest.spyOn(api, 'getFerryTask');
    await open(detail());
    expect(screen.getByLabelText('表单内容', { selector: 'section' })).toBeInTheDocument();
    expect(screen.queryByLabelText('摆渡内容', { selector: 'section' })).not.toBeInTheDocument();
    expect(screen.queryByText('摆渡内容')).not.toBeInTheDocument();
    expect(get).not.toHaveBeenCalled();
  });
});
