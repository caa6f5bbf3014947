import { Descriptions } from 'antd';
import { APP_NAME, APP_VERSION } from '@app/shared';
import { RemoteNav, RemotePage, UnavailablePage } from '@app/shared/ui';

const SETTING_NAV = [
  { key: 'tag', path: '/setting/tag', title: '标签管理' },
  { key: 'about', path: '/setting/about', title: '关于' },
];

const nav = <RemoteNav entries={SETTING_NAV} label="设置导航" />;

export function TagSettingPage() {
  return <UnavailablePage title="标签管理" nav={nav} />;
}

export function AboutPage() {
  return (
    <RemotePage title="关于" nav={nav}>
      <Descriptions
        column={1}
        bordered
        size="middle"
        style={{ maxWidth: 560 }}
        items={[
          { key: 'name', label: '产品名称', children: APP_NAME },
          { key: 'version', label: '版本', children: APP_VERSION },
        ]}
      />
    </RemotePage>
  );
}
