import { render, screen } from '@testing-library/react';
import { renderWithProviders, testFeaturePolicy, testHome } from '@app/shared/test';
import { api, appStore, envConfigAtom } from '@app/shared';
import { activeNavKey, extensionOf, FileIcon, fileTypeGroup, StandaloneGate } from './index';

describe('fileTypeGroup', () => {
  it.each([
    ['zip', 'archive'], ['7z', 'archive'], ['docx', 'document'], ['.DOC', 'document'], ['xlsx', 'spreadsheet'],
    ['csv', 'spreadsheet'], ['pptx', 'presentation'], ['mp4', 'video'], ['mp3', 'audio'], ['png', 'image'],
    ['ts', 'code'], ['m2ts', 'video'], ['tsx', 'code'], ['pdf', 'pdf'], ['exe', 'exe'], ['iso', 'iso'], ['eml', 'eml'],
    ['epub', 'epub'], ['md', 'md'], ['ofd', 'ofd'], ['xyz', 'default'], ['', 'default'],
  ])('%s → %s', (ext, group) => {
    expect(fileTypeGroup(ext)).toBe(group);
  });

  it('a folder is a folder whatever its name', () => {
    expect(fileTypeGroup('zip', true)).toBe('folder');
  });

  it('extensionOf reads the last dot, not a leading one', () => {
    expect(extensionOf('季度报告.final.DOCX')).toBe('docx');
    expect(extensionOf('.gitignore')).toBe('');
    expect(extensionOf('README')).toBe('');
  });
});

describe('FileIcon', () => {
  it('uses the extension, else the name, with a Chinese label and size 32 by default', () => {
    const { container } = render(
      <>
        <FileIcon extension="pdf" />
        <FileIcon name="合同.ofd" />
        <FileIcon folder name="资料.zip" />
      </>,
    );
    const icons = container.querySelectorAll('[data-file-type]');
    expect([...icons].map((i) => i.getAttribute('data-file-type'))).toEqual(['pdf', 'ofd', 'folder']);
    expect(screen.getByLabelText('PDF 文档')).toHaveStyle({ fontSize: '32px' });
    expect(screen.getByLabelText('文件夹')).toBeInTheDocument();
  });
});

describe('activeNavKey', () => {
  const entries = [
    { key: 'my', path: '/swapSpace/myFerry/processing', title: '我的摆渡' },
    { key: 'set', path: '/swapSpace/setFerry', title: '摆渡设置' },
  ];
  it('matches the entry sharing the most path segments', () => {
    expect(activeNavKey(entries, '/swapSpace/myFerry/rejected')).toBe('my');
    expect(activeNavKey(entries, '/swapSpace/setFerry')).toBe('set');
    expect(activeNavKey(entries, '/swapSpace')).toBeUndefined();
  });
});

describe('StandaloneGate', () => {
  afterEach(() => jest.restoreAllMocks());

  it('without a session explains that 云文档 must be signed in first, with a link', () => {
    renderWithProviders(
      <StandaloneGate loginUrl="http://127.0.0.1:8080/login">
        <p>模块内容</p>
      </StandaloneGate>,
    );
    expect(screen.getByText(/请先通过云文档登录/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /前往云文档登录/ })).toHaveAttribute('href', 'http://127.0.0.1:8080/login');
    expect(screen.queryByText('模块内容')).not.toBeInTheDocument();
  });

  it('with a session loads the user context (folder names, roles), then shows the module', async () => {
    const home = jest.spyOn(api, 'getHome').mockResolvedValue(testHome);
    jest.spyOn(api, 'getFeaturePolicy').mockResolvedValue(testFeaturePolicy);
    jest.spyOn(api, 'getEnvironmentConfig').mockResolvedValue({ personalFolderName: '我的网盘', publicFolderName: '公司资料' });
    renderWithProviders(
      <StandaloneGate>
        <p>模块内容</p>
      </StandaloneGate>,
      { session: true },
    );
    expect(await screen.findByText('模块内容')).toBeInTheDocument();
    expect(home).toHaveBeenCalledTimes(1);
    expect(appStore.get(envConfigAtom).personalFolderName).toBe('我的网盘');
  });

  it('still shows the module when the user context cannot be loaded', async () => {
    jest.spyOn(api, 'getHome').mockRejectedValue(new Error('网络错误'));
    jest.spyOn(api, 'getFeaturePolicy').mockRejectedValue(new Error('网络错误'));
    jest.spyOn(api, 'getEnvironmentConfig').mockRejectedValue(new Error('网络错误'));
    renderWithProviders(
      <StandaloneGate>
        <p>模块内容</p>
      </StandaloneGate>,
      { session: true },
    );
    expect(await screen.findByText('模块内容')).toBeInTheDocument();
  });
});
