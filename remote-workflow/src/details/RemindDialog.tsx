// 催办 (the initiator, while the approval runs): a short note for the approvers it waits for
// (选填, at most 200 characters). 确定 reminds them through the 消息中心, each at most once an
// hour; the toast names who was reminded, or says why not in the server's words (reminded
// within the hour, no longer running, not the initiator). The page then reads the approval
// again, so the line 催办：… shows in 审批记录.
import { useState } from 'react';
import { Alert, Form, Input } from 'antd';
import { api, isApiError, notify, type WorkflowInstanceDetail } from '@app/shared';
import { AppDialog } from '@app/shared/ui';
import { joinNames } from '../texts';

export const REMIND_TEXTS = {
  button: '催办',
  title: '催办',
  ok: '催办',
  note: '附言（选填）',
  placeholder: '如：客户在等，请今天处理',
  failed: '催办失败，请稍后重试',
} as const;

const NOTE_MAX = 200;

/** The toast after a 催办: who was reminded, and who had been within the hour. */
export function remindedText(reminded: string[], later: Array<{ name: string }>): string {
  const now = `已催办 ${reminded.join('、')}`;
  return later.length ? `${now}（${joinNames(later)} 一小时内已催办过）` : now;
}

export interface RemindDialogProps {
  detail: WorkflowInstanceDetail;
  onClose: () => void;
  /** after a 催办 or a refusal: read the approval again (审批记录, whether 催办 is still offered) */
  onReload: () => void;
}

export function RemindDialog({ detail, onClose, onReload }: RemindDialogProps) {
  const [note, setNote] = useState('');
  const waiting = joinNames(detail.pending);

  const submit = async () => {
    const comment = note.trim();
    try {
      const out = await api.remindWorkflow(detail.instanceId, comment ? { comment } : {}, { errorMode: 'none' });
      notify.success(remindedText(out.reminded, out.later));
    } catch (e) {
      if (isApiError(e) && e.canceled) return;
      const message = isApiError(e) && e.message ? e.message : REMIND_TEXTS.failed;
      if (isApiError(e) && e.code === 42901) {
        // reminded within the hour: a wait, not a fault; nothing changed
        notify.warning(message);
        onClose();
        return;
      }
      // ended or no longer the initiator's: the page shows it as it now is
      notify.error(message);
    }
    onClose();
    onReload();
  };

  return (
    <AppDialog open title={REMIND_TEXTS.title} okText={REMIND_TEXTS.ok} fullscreenable={false} onOk={submit} onCancel={onClose}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={waiting ? `将通过消息中心提醒 ${waiting} 尽快审批；每人一小时内只能催办一次。` : '将提醒当前待处理的审批人尽快审批；每人一小时内只能催办一次。'}
      />
      <Form layout="vertical">
        <Form.Item label={REMIND_TEXTS.note} style={{ marginBottom: 0 }}>
          <Input.TextArea
            aria-label={REMIND_TEXTS.note}
            rows={3}
            maxLength={NOTE_MAX}
            showCount
            placeholder={REMIND_TEXTS.placeholder}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
