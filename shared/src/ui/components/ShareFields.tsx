// The fields of a share that the share dialog (remote-files) and 修改分享 (remote-share) both
// show: whom it goes to (with the user-selection dialog), the permission, the expiry and the
// download limit.
import { useState } from 'react';
import { Button, Checkbox, Form, InputNumber, Radio, Space, Tag } from 'antd';
import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { SHARE_EXPIRY_PRESETS, SHARE_LEVELS, type ShareLevel, type ShareTarget } from '@app/shared';
import { UserPicker, type UserPickerSelection } from './UserPicker';

export const SHARE_FIELD_TEXTS = {
  targets: '分享给',
  pickTargets: '选择用户、部门或用户组',
  level: '权限',
  expiry: '有效期',
  keep: '不变',
  limit: '下载次数上限',
  unlimited: '不限',
} as const;

export const EMPTY_PICK: UserPickerSelection = { users: [], departments: [], groups: [] };

/** The picks of the user-selection dialog as share recipients, with their names. */
export function shareTargetsOf(selection: UserPickerSelection): Array<ShareTarget & { name: string }> {
  return [
    ...selection.users.map((u) => ({ type: 1 as const, id: u.userId, name: u.nickName || u.userName })),
    ...selection.departments.map((d) => ({ type: 2 as const, id: d.id, name: d.name })),
    ...selection.groups.map((g) => ({ type: 3 as const, id: g.id, name: g.name })),
  ];
}

const TARGET_ICONS = { 1: UserOutlined, 2: ApartmentOutlined, 3: TeamOutlined } as const;

export function ShareTargetsField({ selection, onChange }: { selection: UserPickerSelection; onChange(next: UserPickerSelection): void }) {
  const [picking, setPicking] = useState(false);
  return (
    <Form.Item label={SHARE_FIELD_TEXTS.targets} required>
      <Space wrap>
        {shareTargetsOf(selection).map((t) => {
          const Icon = TARGET_ICONS[t.type];
          return (
            <Tag key={`${t.type}:${t.id}`} icon={<Icon />}>
              {t.name}
            </Tag>
          );
        })}
        <Button size="small" onClick={() => setPicking(true)}>
          {SHARE_FIELD_TEXTS.pickTargets}
        </Button>
      </Space>
      <UserPicker
        open={picking}
        title={SHARE_FIELD_TEXTS.pickTargets}
        initialSelection={selection}
        onOk={(next) => {
          onChange(next);
          setPicking(false);
        }}
        onCancel={() => setPicking(false)}
      />
    </Form.Item>
  );
}

/** The three levels; those not in `allowed` are shown disabled. */
export function ShareLevelField({ value, onChange, allowed }: { value: ShareLevel; onChange(level: ShareLevel): void; allowed?: ShareLevel[] }) {
  return (
    <Form.Item label={SHARE_FIELD_TEXTS.level}>
      <Radio.Group value={value} onChange={(e) => onChange(e.target.value as ShareLevel)}>
        {SHARE_LEVELS.map((l) => (
          <Radio key={l.value} value={l.value} disabled={allowed ? !allowed.includes(l.value) : false}>
            {l.label}
          </Radio>
        ))}
      </Radio.Group>
    </Form.Item>
  );
}

/** Days from now, null for 永久有效, or 'keep' (offered with `keepable`) for no change. */
export type ShareExpiryChoice = number | null | 'keep';

export function ShareExpiryField({ value, onChange, keepable = false, extra }: { value: ShareExpiryChoice; onChange(v: ShareExpiryChoice): void; keepable?: boolean; extra?: string }) {
  return (
    <Form.Item label={SHARE_FIELD_TEXTS.expiry} extra={extra}>
      <Radio.Group value={value ?? 'never'} onChange={(e) => onChange(e.target.value === 'never' ? null : (e.target.value as ShareExpiryChoice))}>
        {keepable ? <Radio.Button value="keep">{SHARE_FIELD_TEXTS.keep}</Radio.Button> : null}
        {SHARE_EXPIRY_PRESETS.map((p) => (
          <Radio.Button key={p.label} value={p.days ?? 'never'}>
            {p.label}
          </Radio.Button>
        ))}
      </Radio.Group>
    </Form.Item>
  );
}

/** 不限, or a number of downloads (null while the box is empty). */
export function ShareLimitField({ on, value, onChange, extra }: { on: boolean; value: number | null; onChange(on: boolean, value: number | null): void; extra?: string }) {
  return (
    <Form.Item label={SHARE_FIELD_TEXTS.limit} extra={extra}>
      <Space>
        <Checkbox checked={!on} onChange={(e) => onChange(!e.target.checked, value)}>
          {SHARE_FIELD_TEXTS.unlimited}
        </Checkbox>
        {on ? (
          <InputNumber
            aria-label={SHARE_FIELD_TEXTS.limit}
            min={1}
            max={1000000}
            precision={0}
            value={value}
            onChange={(v) => onChange(true, typeof v === 'number' ? v : null)}
            suffix="次"
          />
        ) : null}
      </Space>
    </Form.Item>
  );
}
