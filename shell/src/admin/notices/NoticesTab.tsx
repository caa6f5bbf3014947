// 通知 of 系统管理 (system administrators): the mail server of notice mails with 发送测试邮件, the
// rules fixed for everyone per notice kind and channel with the hour of daily digests, and the
// notices that could not be delivered.
import { Space } from 'antd';
import { DeliveriesCard } from './DeliveriesCard';
import { MailSettingsCard } from './MailSettingsCard';
import { NoticePolicyCard } from './NoticePolicyCard';

export function NoticesTab() {
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <MailSettingsCard />
      <NoticePolicyCard />
      <DeliveriesCard />
    </Space>
  );
}
