// 通知设置 of 个人设置: for each notice kind, a switch per channel (站内消息, 邮件, and 钉钉 where
// the server offers it: the server lists the channels), saved as soon as it is turned; a row an
// administrator fixed shows disabled with the tooltip 由管理员设定; a channel that does not apply
// says why (mail not switched on, no address, no DingTalk bound); and how often the other kinds'
// mails and DingTalk messages are summed up (每小时 / 每天).
import { useEffect, useState } from 'react';
import { Alert, Card, Radio, Skeleton, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { NOTICE_KIND_NAMES, notify, type NoticeDigest, type NoticeSettings } from '@app/shared';
import { noticeSettingsApi } from '@app/shared/admin';

export const FIXED_BY_ADMIN = '由管理员设定';

/** The Chinese name of a kind (the kind itself for one this page does not know yet). */
export const kindName = (kind: string) => (NOTICE_KIND_NAMES as Record<string, string>)[kind] ?? kind;

/** The channels beside 站内消息 (邮件, 钉钉…): those that send urgent kinds at once and sum up the others. */
export const outsideChannels = <T extends { key: string }>(channels: readonly T[]) => channels.filter((c) => c.key !== 'inApp');

/** “邮件”, “邮件、钉钉消息”: what the outside channels send, in a sentence. */
function sentNoun(channels: ReadonlyArray<{ key: string; name: string }>): string {
  return outsideChannels(channels)
    .map((c) => (c.key === 'dingtalk' ? '钉钉消息' : c.name))
    .join('、');
}

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
  const outside = outsideChannels(settings.channels);
  const names = outside.map((c) => c.name).join('、');
  const sent = sentNoun(settings.channels);
  const merged = outside.some((c) => c.key === 'dingtalk') ? '合并为一封邮件、一条钉钉消息发送' : '合并为一封发送';
  const columns = [
    {
      title: '通知类型',
      dataIndex: 'kind',
      key: 'kind',
      render: (kind: string, row: NoticeSettings['rows'][number]) => (
        <Space size={6}>
          <span>{kindName(kind)}</span>
          {row.urgent ? <Tag color="orange">{names}立即发送</Tag> : null}
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
          <Typography.Text strong>{names}汇总频率</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Radio.Group
              aria-label={`${names}汇总频率`}
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
            {urgent.length ? `${urgent.join('、')}的${sent}立即发送；` : ''}其他类型的{sent}按此频率{merged}，发送前已在站内查看或已处理的不再发送。
          </Typography.Paragraph>
        </div>
      </Space>
    </Card>
  );
}
