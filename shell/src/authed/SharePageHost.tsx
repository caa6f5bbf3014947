// The public outsourced-share page /s/:shareId: the share remote's SharePage inside the
// shared providers, without the signed-in layout.
import { AppProviders } from '@app/shared/ui';
import { RemoteArea } from '../federation/RemoteArea';
import { isRemoteRegistered } from '../federation/remotes';
import { Result } from 'antd';

export default function SharePageHost() {
  return (
    <AppProviders>
      <div style={{ minHeight: '100vh', background: '#f5f6f8', padding: '32px 16px' }}>
        <div style={{ maxWidth: 960, margin: '0 auto', background: '#fff', borderRadius: 8, padding: 24 }}>
          {isRemoteRegistered('share') ? (
            <RemoteArea id="share/SharePage" />
          ) : (
            <Result status="warning" title="外链分享暂不可用" subTitle="当前部署未提供分享模块。" />
          )}
        </div>
      </div>
    </AppProviders>
  );
}
