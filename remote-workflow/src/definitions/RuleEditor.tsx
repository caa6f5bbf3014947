// Who approves a step, or who is copied: a list of rules (指定成员, 部门负责人, 部门成员, 用户组成员,
// 发起人的部门负责人, 发起人自选) shown as removable tags; 添加 offers the kinds and, for those that
// name someone, the user-selection dialog on the matching tab.
import { useState } from 'react';
import { Button, Dropdown, Space, Tag, Typography } from 'antd';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import type { WorkflowApproverRule } from '@app/shared';
import { UserPicker, type UserPickerSelection, type UserPickerType } from '@app/shared/ui';
import { RULE_LABELS, RULE_TYPES, type RuleType } from '../texts';

type NamedRuleType = 'user' | 'deptLeader' | 'deptMembers' | 'groupMembers';

const PICKERS: Record<NamedRuleType, { tab: UserPickerType; title: string }> = {
  user: { tab: 'user', title: '选择成员' },
  deptLeader: { tab: 'department', title: '选择部门（由部门负责人审批）' },
  deptMembers: { tab: 'department', title: '选择部门（部门成员，含下级部门）' },
  groupMembers: { tab: 'group', title: '选择用户组' },
};

const isNamed = (t: RuleType): t is NamedRuleType => t in PICKERS;

export const ruleText = (r: WorkflowApproverRule) => `${RULE_LABELS[r.type]}${r.name ? `：${r.name}` : ''}`;
const ruleKey = (r: WorkflowApproverRule) => `${r.type}:${'id' in r ? r.id : ''}`;

function rulesOf(type: NamedRuleType, selection: UserPickerSelection): WorkflowApproverRule[] {
  if (type === 'user') return selection.users.map((u) => ({ type, id: u.userId, name: u.nickName || u.userName }));
  if (type === 'groupMembers') return selection.groups.map((g) => ({ type, id: g.id, name: g.name }));
  return selection.departments.map((d) => ({ type, id: d.id, name: d.name }));
}

export interface RuleEditorProps {
  rules: WorkflowApproverRule[];
  onChange: (next: WorkflowApproverRule[]) => void;
  /** the add button, e.g. 添加审批人 */
  addLabel: string;
  /** the kinds offered (default: all) */
  types?: RuleType[];
  /** what an empty list says */
  emptyText?: string;
}

export function RuleEditor({ rules, onChange, addLabel, types = RULE_TYPES, emptyText = '尚未添加' }: RuleEditorProps) {
  const [picking, setPicking] = useState<NamedRuleType | null>(null);

  const add = (added: WorkflowApproverRule[]) => {
    const seen = new Set(rules.map(ruleKey));
    onChange([...rules, ...added.filter((r) => !seen.has(ruleKey(r)))]);
  };

  const choose = (type: RuleType) => {
    if (isNamed(type)) setPicking(type);
    else add([{ type } as WorkflowApproverRule]);
  };

  return (
    <div>
      <Space wrap size={[4, 8]}>
        {rules.length ? (
          rules.map((r, i) => (
            <Tag
              key={`${ruleKey(r)}:${i}`}
              color={r.type === 'user' ? 'blue' : r.type === 'groupMembers' ? 'purple' : r.type.startsWith('dept') ? 'green' : 'gold'}
              closable
              closeIcon={<CloseOutlined aria-label={`移除 ${ruleText(r)}`} />}
              onClose={(e) => {
                e.preventDefault();
                onChange(rules.filter((_, j) => j !== i));
              }}
            >
              {ruleText(r)}
            </Tag>
          ))
        ) : (
          <Typography.Text type="secondary">{emptyText}</Typography.Text>
        )}
        <Dropdown
          trigger={['click']}
          menu={{ items: types.map((t) => ({ key: t, label: RULE_LABELS[t] })), onClick: ({ key }) => choose(key as RuleType) }}
        >
          <Button size="small" icon={<PlusOutlined />}>
            {addLabel}
          </Button>
        </Dropdown>
      </Space>
      {picking ? (
        <UserPicker
          open
          title={PICKERS[picking].title}
          limitTypes={[PICKERS[picking].tab]}
          onOk={(selection) => {
            add(rulesOf(picking, selection));
            setPicking(null);
          }}
          onCancel={() => setPicking(null)}
        />
      ) : null}
    </div>
  );
}
