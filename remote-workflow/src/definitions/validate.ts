// The checks of a definition before it is saved (the server checks the same, in its words).
import type { WorkflowDefinitionBody } from '@app/shared';

export const FIELD_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** Every problem of `body`, in Chinese; empty when it may be saved. */
export function definitionErrors(body: WorkflowDefinitionBody): string[] {
  const errors: string[] = [];
  if (!body.name.trim()) errors.push('请填写流程名称');
  const keys = new Map<string, number>();
  body.fields.forEach((f, i) => {
    const which = `第 ${i + 1} 个字段${f.label.trim() ? `「${f.label.trim()}」` : ''}`;
    if (!f.label.trim()) errors.push(`${which}：请填写字段名称`);
    if (!f.key) errors.push(`${which}：请填写字段标识`);
    else if (!FIELD_KEY_PATTERN.test(f.key)) errors.push(`${which}：标识只能包含字母、数字和下划线，以字母或下划线开头，最多 32 个字符`);
    else keys.set(f.key, (keys.get(f.key) ?? 0) + 1);
    if (f.type === 'select' && !(f.options ?? []).some((o) => o.trim())) errors.push(`${which}：下拉选择至少需要一个选项`);
  });
  for (const [key, n] of keys) if (n > 1) errors.push(`字段标识「${key}」重复了，每个字段的标识必须不同`);
  if (!body.steps.length) errors.push('请至少添加一个审批步骤');
  body.steps.forEach((s, i) => {
    const which = `第 ${i + 1} 步${s.name.trim() ? `「${s.name.trim()}」` : ''}`;
    if (!s.name.trim()) errors.push(`${which}：请填写步骤名称`);
    if (!s.approvers.length) errors.push(`${which}：请至少添加一条审批人规则`);
  });
  return errors;
}
