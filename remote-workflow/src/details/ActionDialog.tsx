// The dialog of one action on an approval (同意, 驳回, 退回, 转交, 加签, 撤销, 评论): a comment box
// (required for 驳回, 退回 and 评论), the step to return to, or the person to hand the task to or
// to add. 确定 sends the action; the server answers with the approval as it now is.
import { useState } from 'react';
import { Alert, Button, Form, Input, Select, Space, Tag, Typography } from 'antd';
import {
  announceWorkflowChange,
  api,
  notify,
  type OrgUser,
  type WorkflowActionBody,
  type WorkflowActionName,
  type WorkflowInstanceDetail,
} from '@app/shared';
import { AppDialog, UserPicker } from '@app/shared/ui';

export type ActionKey = 'approve' | 'reject' | 'return' | 'transfer' | 'addApprover' | 'revoke' | 'comment';

export interface ActionMeta {
  label: string;
  title: string;
  api: WorkflowActionName;
  /** the toast after it succeeded */
  done: string;
  commentLabel: string;
  /** the message when the comment is required and empty; absent: optional */
  commentRequired?: string;
  danger?: boolean;
}

export const ACTIONS: Record<ActionKey, ActionMeta> = {
  approve: { label: '同意', title: '同意审批', api: 'Approve', done: '已同意', commentLabel: '审批意见（选填）' },
  reject: { label: '驳回', title: '驳回审批', api: 'Reject', done: '已驳回', commentLabel: '驳回理由', commentRequired: '请填写驳回理由', danger: true },
  return: { label: '退回', title: '退回到之前的步骤', api: 'Return', done: '已退回', commentLabel: '退回理由', commentRequired: '请填写退回理由' },
  transfer: { label: '转交', title: '转交给他人审批', api: 'Transfer', done: '已转交', commentLabel: '说明（选填）' },
  addApprover: { label: '加签', title: '加签', api: 'AddApprover', done: '已加签', commentLabel: '说明（选填）' },
  revoke: { label: '撤销', title: '撤销审批', api: 'Revoke', done: '已撤销', commentLabel: '撤销原因（选填）', danger: true },
  comment: { label: '评论', title: '发表评论', api: 'Comment', done: '已评论', commentLabel: '评论内容', commentRequired: '请填写评论内容' },
};

export const ACTION_ORDER: ActionKey[] = ['approve', 'reject', 'return', 'transfer', 'addApprover', 'revoke', 'comment'];

/** Whether `detail.can` offers the action to the caller. */
export function canDo(detail: WorkflowInstanceDetail, action: ActionKey): boolean {
  if (action === 'return') return detail.can.returnTo.length > 0;
  return Boolean(detail.can[action]);
}

const COMMENT_MAX = 1000;

export interface ActionDialogProps {
  action: ActionKey;
  detail: WorkflowInstanceDetail;
  onDone: (next: WorkflowInstanceDetail) => void;
  onClose: () => void;
}

export function ActionDialog({ action, detail, onDone, onClose }: ActionDialogProps) {
  const meta = ACTIONS[action];
  const [comment, setComment] = useState('');
  const [toStep, setToStep] = useState<number | undefined>(detail.can.returnTo.length === 1 ? detail.can.returnTo[0] : undefined);
  const [person, setPerson] = useState<OrgUser | null>(null);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsPerson = action === 'transfer' || action === 'addApprover';
  const personLabel = action === 'transfer' ? '转交给' : '加签人员';

  const submit = async () => {
    setError(null);
    const text = comment.trim();
    if (action === 'return' && toStep === undefined) return setError('请选择退回到哪一步');
    if (needsPerson && !person) return setError(action === 'transfer' ? '请选择转交给谁' : '请选择加签人员');
    if (meta.commentRequired && !text) return setError(meta.commentRequired);
    const body: WorkflowActionBody = {};
    if (text) body.comment = text;
    if (action === 'return') body.toStep = toStep;
    if (needsPerson && person) body.userId = person.userId;
    let next: WorkflowInstanceDetail;
    try {
      next = await api.actOnWorkflow(detail.instanceId, meta.api, body);
    } catch {
      return; // the http client has shown why; the dialog stays open
    }
    onDone(next);
    notify.success(meta.done);
    announceWorkflowChange();
    onClose();
  };

  return (
    <AppDialog
      open
      title={meta.title}
      okText={meta.label}
      okButtonProps={{ danger: meta.danger }}
      fullscreenable={false}
      onOk={submit}
      onCancel={onClose}
    >
      <Form layout="vertical">
        {action === 'revoke' ? (
          <Alert type="warning" showIcon title="撤销后这条审批即结束，不能恢复。确定撤销吗？" style={{ marginBottom: 12 }} />
        ) : null}
        {action === 'return' ? (
          <Form.Item label="退回到" required>
            <Select<number>
              aria-label="退回到"
              placeholder="选择步骤"
              value={toStep}
              onChange={setToStep}
              options={detail.can.returnTo.map((i) => ({ value: i, label: detail.steps[i]?.name ?? `第 ${i + 1} 步` }))}
            />
          </Form.Item>
        ) : null}
        {needsPerson ? (
          <Form.Item label={personLabel} required>
            <Space wrap>
              {person ? <Tag color="blue">{person.nickName || person.userName}</Tag> : null}
              <Button size="small" onClick={() => setPicking(true)}>
                {person ? '重新选择' : '选择人员'}
              </Button>
            </Space>
          </Form.Item>
        ) : null}
        <Form.Item label={meta.commentLabel} required={Boolean(meta.commentRequired)} style={{ marginBottom: 0 }}>
          <Input.TextArea
            aria-label={meta.commentLabel}
            rows={4}
            maxLength={COMMENT_MAX}
            showCount
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </Form.Item>
      </Form>
      {error ? (
        <div role="alert" style={{ marginTop: 8 }}>
          <Typography.Text type="danger">{error}</Typography.Text>
        </div>
      ) : null}
      {needsPerson ? (
        <UserPicker
          open={picking}
          title={action === 'transfer' ? '选择转交给谁' : '选择加签人员'}
          limitTypes={['user']}
          multiple={false}
          initialSelection={{ users: person ? [person] : [] }}
          onOk={(selection) => {
            setPerson(selection.users[0] ?? null);
            setPicking(false);
          }}
          onCancel={() => setPicking(false)}
        />
      ) : null}
    </AppDialog>
  );
}
