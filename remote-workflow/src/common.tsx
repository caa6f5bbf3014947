// Small pieces the workflow pages share.
import { useEffect } from 'react';
import { Tag } from 'antd';
import { WORKFLOW_CHANGED_EVENT, type WorkflowStatus } from '@app/shared';
import { STATUS_META } from './texts';

export function StatusTag({ status }: { status: WorkflowStatus }) {
  const meta = STATUS_META[status] ?? { label: '未知', color: 'default' };
  return <Tag color={meta.color}>{meta.label}</Tag>;
}

/** Calls `onChange` whenever the user's approvals changed (here or in another part of the page). */
export function useWorkflowChanged(onChange: () => void): void {
  useEffect(() => {
    window.addEventListener(WORKFLOW_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(WORKFLOW_CHANGED_EVENT, onChange);
  }, [onChange]);
}
