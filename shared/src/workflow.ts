// What the shell and the workflow remote of 云文档 agree on about approvals: the window event
// that says the user's approvals changed (the shell then refreshes the todo count on 流程).

/** Dispatched on `window` after the user started or acted on an approval. */
export const WORKFLOW_CHANGED_EVENT = 'workflow:changed';

/** Tells the rest of the page (the shell's menu count) that the user's approvals changed. */
export function announceWorkflowChange(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(WORKFLOW_CHANGED_EVENT));
}
