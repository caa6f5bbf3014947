import { homePathOf, isPublicPath, jumpToFile, resolveFileJump, startupRedirect } from './routes';
import { setNotifier } from './notify';
import type { MenuEntry } from './api/types';

describe('jump helper', () => {
  it('first segment 1 goes to enterprise files, anything else to personal files', () => {
    expect(resolveFileJump('1/5/9')).toMatchObject({ ok: true, name: 'Enterprisefile', path: '/file/public/1/5/9' });
    expect(resolveFileJump('2/10')).toMatchObject({ ok: true, name: 'Personalfile', path: '/file/personal/2/10' });
    expect(resolveFileJump('7/3')).toMatchObject({ ok: true, name: 'Personalfile' });
  });

  it('a file opens its folder with the file to focus', () => {
    expect(resolveFileJump('2/10/11/13', null, 'file')).toMatchObject({ ok: true, path: '/file/personal/2/10/11?focus=13' });
    expect(resolveFileJump('1/20/21', null, 'file')).toMatchObject({ ok: true, path: '/file/public/1/20?focus=21' });
    // a path of the space segment and the file only: the space's root
    expect(resolveFileJump('2/12', null, 'file')).toMatchObject({ ok: true, path: '/file/personal?focus=12' });
    const nav = jest.fn();
    expect(jumpToFile({ idPath: '2/10/12', type: 'file' }, { personalSpace: true }, nav)).toBe(true);
    expect(nav).toHaveBeenCalledWith('/file/personal/2/10?focus=12');
  });

  it('needs at least two segments', () => {
    expect(resolveFileJump('1')).toMatchObject({ ok: false });
    expect(resolveFileJump('')).toMatchObject({ ok: false });
  });

  it('warns when the feature policy blocks the space, and navigates otherwise', () => {
    const warning = jest.fn();
    setNotifier({ warning });
    const nav = jest.fn();
    expect(jumpToFile({ idPath: '1/5' }, { publicSpace: false, personalSpace: true }, nav)).toBe(false);
    expect(warning).toHaveBeenLastCalledWith('当前功能策略无法访问企业文件');
    expect(jumpToFile('2/5', { personalSpace: false }, nav)).toBe(false);
    expect(warning).toHaveBeenLastCalledWith('当前功能策略无法访问个人文件');
    expect(jumpToFile('2/5/8', { personalSpace: true }, nav)).toBe(true);
    expect(nav).toHaveBeenCalledWith('/file/personal/2/5/8');
  });
});

describe('route rules', () => {
  const menus: MenuEntry[] = [
    { name: 'file', path: '/file/personal', title: '云文档', isShow: true },
    { name: 'workflow', path: '/workflow/list', title: '流程', isShow: false },
  ];

  it('public paths', () => {
    for (const p of ['/login', '/s/abc', '/preview/xyz', '/signUp', '/service', '/agreement', '/privacy', '/authorization', '/mobilityPreview']) {
      expect(isPublicPath(p)).toBe(true);
    }
    for (const p of ['/', '/file/personal', '/s/', '/workflow/list', '/error-log/list']) expect(isPublicPath(p)).toBe(false);
  });

  it('start-up redirect: a menu flagged not shown goes to the base home, only with a token', () => {
    expect(startupRedirect('/workflow/list', menus, '/file/personal', true)).toBe('/file/personal');
    expect(startupRedirect('/workflow/list', menus, '/file/personal', false)).toBeNull();
    expect(startupRedirect('/file/public/3', menus, '/file/personal', true)).toBeNull();
    expect(startupRedirect('/unknown', menus, '/file/personal', true)).toBeNull();
    expect(startupRedirect('/s/workflow', menus, '/file/personal', true)).toBeNull();
  });

  it('home is the first shown menu entry, else not found', () => {
    expect(homePathOf([{ ...menus[1] }, { ...menus[0], path: '/file/public' }])).toBe('/file/public');
    expect(homePathOf(menus.map((m) => ({ ...m, isShow: false })), '/404')).toBe('/404');
    expect(homePathOf([], '/404')).toBe('/404');
  });
});
