// 通知规则 of 系统管理 › 通知: for each notice kind and channel the server lists (站内消息, 邮件, and
// 钉钉 when DingTalk 工作通知 is configured), 用户自选 (each person decides in
// 个人设置 › 通知设置), 强制开启 or 强制关闭 (the person's switch shows disabled, 由管理员设定); and the
// hour at which daily digests go out. 保存 sends the whole table.
import { useEffect, useState } from 'react';
import { Button, Card, InputNumber, Select, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { NOTICE_KIND_NAMES, notify, type NoticePolicy, type NoticePolicyMode } from '@app/shared';
import { noticeSettingsApi } from '@app/shared/admin';

const kindName = (kind: string) => (NOTICE_KIND_NAMES as Record<string, string>)[kind] ?? kind;

export const MODE_OPTIONS: Array<{ value: NoticePolicyMode; label: string }> = [
  { value: 'user', label: '用户自选' },
  { value: 'on', label: '强制开启' },
  { value: 'off', label: '强制关闭' },
];

export function NoticePolicyCard() {
  const [policy, setPolicy] = useState<NoticePolicy | null>(null);
  const [rules, setRules] = useState<NoticePolicy['rules']>({});
  const [dailyHour, setDailyHour] = useState(8);
  const [saving, setSaving] = useState(false);

  const show = (p: NoticePolicy) => {
    setPolicy(p);
    setRules(p.rules);
    setDailyHour(p.dailyHour);
  };

  useEffect(() => {
    let live = true;
    noticeSettingsApi
      .getPolicy()
      .then((p) => live && show(p))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    setSaving(true);
    try {
      show(await noticeSettingsApi.savePolicy({ rules, dailyHour }));
      notify.success('通知规则已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  if (!policy) {
    return (
      <Card size="small" title="通知规则">
        <Skeleton active />
      </Card>
    );
  }

  // the channels beside 站内消息 (邮件, and 钉钉 when the server offers it)
  const outside = policy.channels.filter((c) => c.key !== 'inApp');
  const names = outside.map((c) => c.name).join('、');
  const sent = outside.map((c) => (c.key === 'mail' ? '通知邮件' : c.key === 'dingtalk' ? '钉钉消息' : c.name)).join('、');

  return (
    <Card size="small" title="通知规则">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          “用户自选”由每个人在“个人设置 › 通知设置”中决定（默认开启）；“强制开启”“强制关闭”对所有人生效，个人不能修改。
        </Typography.Paragraph>
        <Table
          aria-label="通知规则"
          size="small"
          rowKey="kind"
          pagination={false}
          dataSource={policy.kinds.map((kind) => ({ kind }))}
          columns={[
            {
              title: '通知类型',
              dataIndex: 'kind',
              render: (kind: string) => (
                <Space size={6}>
                  <span>{kindName(kind)}</span>
                  {policy.urgentKinds.includes(kind) ? <Tag color="orange">{names}立即发送</Tag> : null}
                </Space>
              ),
            },
            ...policy.channels.map((channel) => ({
              title: channel.name,
              key: channel.key,
              width: 160,
              render: (_: unknown, row: { kind: string }) => (
                <Select<NoticePolicyMode>
                  aria-label={`${kindName(row.kind)} · ${channel.name}`}
                  size="small"
                  style={{ width: 120 }}
                  value={rules[row.kind]?.[channel.key] ?? 'user'}
                  options={MODE_OPTIONS}
                  onChange={(mode) => setRules((r) => ({ ...r, [row.kind]: { ...r[row.kind], [channel.key]: mode } }))}
                />
              ),
            })),
          ]}
        />
        <Space wrap>
          <span>每日汇总发送时间</span>
          <InputNumber aria-label="每日汇总发送时间" min={0} max={23} precision={0} suffix="点" value={dailyHour} onChange={(v) => setDailyHour(v ?? 8)} style={{ width: 120 }} />
          <Typography.Text type="secondary">选择“每天”汇总的人在此时收到前一天的{sent}</Typography.Text>
        </Space>
        <div>
          <Button type="primary" loading={saving} onClick={() => void save()}>
            保存
          </Button>
        </div>
      </Space>
    </Card>
  );
}
