// The tabs of 云文档's settings pages (/setting/*), shared by each page.
import { RemoteNav } from '@app/shared/ui';

export const SETTING_NAV = [
  { key: 'tag', path: '/setting/tag', title: '标签管理' },
  { key: 'about', path: '/setting/about', title: '关于' },
];

export const settingNav = <RemoteNav entries={SETTING_NAV} label="设置导航" />;
