// A one-step approval flow and a request started on it, as the notice, mail and log tests need
// them: the approvers of the step (或签, any of them), a 事由 field, no files.
import crypto from 'node:crypto';
import type { App } from '../../src/app';
import { ok } from './harness';

/** Defines a flow whose one step waits for any of `approverIds`; its id. */
export async function defineOneStepFlow(app: App, adminToken: string, approverIds: string[], namePrefix = '测试流程'): Promise<string> {
  const body = {
    name: `${namePrefix}-${crypto.randomUUID().slice(0, 6)}`,
    category: '行政',
    description: '',
    enabled: true,
    fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }],
    allowFiles: false,
    steps: [{ name: '审批', mode: 'any', approvers: approverIds.map((id) => ({ type: 'user', id })) }],
    cc: [],
    revoke: 'processing',
  };
  return (await ok(app, 'POST', '/api/Workflow/Definitions', { token: adminToken, body })).id as string;
}

/** Starts a request on the flow as the person whose token is given; its id. */
export async function startRequest(app: App, token: string, definitionId: string, title: string): Promise<string> {
  return (await ok(app, 'POST', '/api/Workflow/Instances', { token, body: { definitionId, title, form: { reason: '出差' }, fileIds: [] } })).instanceId;
}
