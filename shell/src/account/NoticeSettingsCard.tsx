// 通知设置 of 个人设置: for each notice kind, a switch per channel (站内消息, 邮件; the server lists
// the channels), saved as soon as it is turned; a row an administrator fixed shows disabled with
// the tooltip 由管理员设定; the mail column says why it does not apply (mail not switched on, no
// address); and how often the other kinds' mails are summed up (每小时 / 每天).
import { useEffect, useState } from 'react';
import { Alert, Card, Radio, Skeleton, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { NOTICE_KIND_NAMES, noticeSettingsApi, notify, type NoticeDigest, type NoticeSettings } from '@app/shared';

export const FIXED_BY_ADMIN = '由管理员设定';

/** The Chinese name of a kind (the kind itself for one this page does not know yet). */
export const kindName = (kind: string) => (NOTICE_KIND_NAMES as Record<string, string>)[kind] ?? kind;

export function NoticeSettingsCard() {
  const [settings, setSettings] = useState<NoticeSettings | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    noticeSettingsApi
      .getMine()
      .then((s) => live && setSettings(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const save = async (key: string, body: Parameters<typeof noticeSettingsApi.saveMine>[0]) => {
    setSaving(key);
    try {
      setSettings(await noticeSettingsApi.saveMine(body));
      notify.success('通知设置已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(null);
    }
  };

  if (!settings) {
    return (
      <Card size="small" title="通知设置">
        <Skeleton active />
      </Card>
    );
  }

  const urgent = settings.rows.filter((r) => r.urgent).map((r) => kindName(r.kind));
  const notes = settings.channels.filter((c) => !c.available && c.note);
  const columns = [
    {
      title: '通知类型',
      dataIndex: 'kind',
      key: 'kind',
      render: (kind: string, row: NoticeSettings['rows'][number]) => (
        <Space size={6}>
          <span>{kindName(kind)}</span>
          {row.urgent ? <Tag color="orange">邮件立即发送</Tag> : null}
        </Space>
      ),
    },
    ...settings.channels.map((channel) => ({
      title: channel.available ? channel.name : <Tooltip title={channel.note}>{channel.name}（不可用）</Tooltip>,
      key: channel.key,
      width: 140,
      render: (_: unknown, row: NoticeSettings['rows'][number]) => {
        const cell = row.channels[channel.key] ?? { enabled: true, fixed: false };
        const key = `${row.kind}/${channel.key}`;
        const label = `${kindName(row.kind)} · ${channel.name}`;
        const control = (
          <Switch
            size="small"
            aria-label={label}
            checked={cell.enabled}
            disabled={cell.fixed || !channel.available || (saving !== null && saving !== key)}
            loading={saving === key}
            onChange={(on) => void save(key, { settings: { [row.kind]: { [channel.key]: on } } })}
          />
        );
        return cell.fixed ? (
          <Tooltip title={FIXED_BY_ADMIN}>
            <span data-testid={`fixed-${key}`}>{control}</span>
          </Tooltip>
        ) : (
          control
        );
      },
    })),
  ];

  return (
    <Card size="small" title="通知设置">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {notes.map((c) => (
          <Alert key={c.key} type="info" showIcon title={`${c.name}：${c.note}`} />
        ))}
        <Table
          aria-label="通知设置"
          size="small"
          rowKey="kind"
          pagination={false}
          dataSource={settings.rows}
          columns={columns}
        />
        <div>
          <Typography.Text strong>邮件汇总频率</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Radio.Group
              aria-label="邮件汇总频率"
              value={settings.digest}
              disabled={saving !== null}
              onChange={(e) => void save('digest', { digest: e.target.value as NoticeDigest })}
              options={[
                { value: 'hourly', label: '每小时' },
                { value: 'daily', label: `每天（${settings.dailyHour}:00）` },
              ]}
            />
          </div>
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {urgent.length ? `${urgent.join('、')}的邮件立即发送；` : ''}其他类型的邮件按此频率合并为一封发送，发送前已在站内查看或已处理的不再发送。
          </Typography.Paragraph>
        </div>
      </Space>
    </Card>
  );
}
