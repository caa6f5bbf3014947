import { Descriptions } from 'antd';
import { APP_NAME, APP_VERSION } from '@app/shared';
import { RemotePage } from '@app/shared/ui';
import { settingNav as nav } from './settingNav';

export { TagSettingPage } from './TagSettingPage';

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
