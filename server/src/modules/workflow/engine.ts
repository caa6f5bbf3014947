// The approval engine of 云文档: pure transitions over an instance's stored state. Nothing here
// reads or writes the database; the service loads the state, applies one action, and stores
// the result in one transaction with a version check (docs/integration.md, "Approvals").
// Every transition also returns the log entries it appends; nothing rewrites the log.

/** 1 审批中, 2 已通过, 3 已驳回, 4 已撤销 (api-contract.md, "Approvals"). */
export const INSTANCE_STATUS = { processing: 1, approved: 2, rejected: 3, revoked: 4 } as const;
export type InstanceStatus = (typeof INSTANCE_STATUS)[keyof typeof INSTANCE_STATUS];

/** 依次 (one after another), 会签 (all must approve), 或签 (any one approves). */
export type StepMode = 'sequential' | 'all' | 'any';

export type TaskStatus = 'waiting' | 'pending' | 'approved' | 'rejected' | 'transferred' | 'returned' | 'cancelled';

export interface Task {
  userId: number;
  status: TaskStatus;
  /** who handed this task over (转交) or added it (加签) */
  from?: number;
}

export interface StepState {
  name: string;
  mode: StepMode;
  /** the approvers the step started with (退回 starts the step again with them) */
  approvers: number[];
  tasks: Task[];
  /** the step had nobody to approve and went to the flow admins */
  fallback?: boolean;
}

export interface InstanceState {
  status: InstanceStatus;
  /** the step being decided (steps.length once approved) */
  current: number;
  steps: StepState[];
  /** bumped by every transition; the store refuses a write whose version moved meanwhile */
  version: number;
}

/** A step of the route, with its approvers already resolved to users. */
export interface RouteStep {
  name: string;
  mode: StepMode;
  approvers: number[];
}

export type ActionKind = 'start' | 'approve' | 'reject' | 'return' | 'transfer' | 'addApprover' | 'revoke' | 'comment' | 'finish';

/** One line of the timeline. */
export interface LogEntry {
  kind: ActionKind;
  /** who acted (0 for the engine itself: a step finished, the instance ended) */
  userId: number;
  step: number;
  comment: string;
  /** 转交 and 加签: the other person; 退回: the step returned to */
  target?: number;
  /** finish: the instance's end */
  status?: InstanceStatus;
}

export type Action =
  | { kind: 'approve'; userId: number; comment?: string }
  | { kind: 'reject'; userId: number; comment?: string }
  | { kind: 'return'; userId: number; toStep: number; comment?: string }
  | { kind: 'transfer'; userId: number; to: number; comment?: string }
  | { kind: 'addApprover'; userId: number; add: number; comment?: string }
  | { kind: 'revoke'; userId: number; comment?: string }
  | { kind: 'comment'; userId: number; comment: string };

export interface Rules {
  initiatorId: number;
  /** 撤销: 'untouched' while no approver has acted (default), 'processing' while it runs */
  revoke?: 'untouched' | 'processing' | 'never';
}

/** A refused transition: `code` is the envelope code, `message` the Chinese sentence. */
export class TransitionError extends Error {
  constructor(
    readonly code: 40001 | 40301 | 40901,
    message: string,
  ) {
    super(message);
    this.name = 'TransitionError';
  }
}

const refuse = (code: 40001 | 40301 | 40901, message: string): never => {
  throw new TransitionError(code, message);
};

function clone(state: InstanceState): InstanceState {
  return { ...state, steps: state.steps.map((s) => ({ ...s, approvers: [...s.approvers], tasks: s.tasks.map((t) => ({ ...t })) })) };
}

/** The tasks of a step as it begins: the first (依次) or all of them pending. */
function openTasks(mode: StepMode, approvers: number[]): Task[] {
  return approvers.map((userId, i) => ({ userId, status: mode === 'sequential' && i > 0 ? 'waiting' : 'pending' }));
}

const unique = (ids: number[]) => [...new Set(ids)];

/**
 * A new instance on `route`. A step with nobody to approve goes to `fallback` (the flow admins,
 * any one of whom decides), and is marked so; with nobody there either, the instance cannot start.
 */
export function startInstance(route: RouteStep[], fallback: number[], initiatorId: number, comment = ''): { state: InstanceState; log: LogEntry[] } {
  if (!route.length) refuse(40001, '该流程没有审批步骤，请联系流程管理员');
  const steps: StepState[] = route.map((r) => {
    const own = unique(r.approvers);
    const approvers = own.length ? own : unique(fallback);
    if (!approvers.length) refuse(40001, `步骤“${r.name}”没有审批人，且没有流程管理员可以接手，请联系管理员`);
    // any one of the flow admins takes a step that had nobody
    return { name: r.name, mode: own.length ? r.mode : 'any', approvers, tasks: [], ...(own.length ? {} : { fallback: true }) };
  });
  steps[0].tasks = openTasks(steps[0].mode, steps[0].approvers);
  return {
    state: { status: INSTANCE_STATUS.processing, current: 0, steps, version: 1 },
    log: [{ kind: 'start', userId: initiatorId, step: 0, comment }],
  };
}

/** The users who must act now. */
export function pendingApprovers(state: InstanceState): number[] {
  if (state.status !== INSTANCE_STATUS.processing) return [];
  return state.steps[state.current].tasks.filter((t) => t.status === 'pending').map((t) => t.userId);
}

/** Everyone on the route: past, present and future approvers (they may see the instance). */
export function allApprovers(state: InstanceState): number[] {
  return unique(state.steps.flatMap((s) => [...s.approvers, ...s.tasks.map((t) => t.userId)]));
}

/** Whether an approver has decided anything yet (revocation rule 'untouched'). */
export function touched(log: readonly LogEntry[]): boolean {
  return log.some((e) => e.kind === 'approve' || e.kind === 'reject' || e.kind === 'return' || e.kind === 'transfer' || e.kind === 'addApprover');
}

function pendingTaskOf(state: InstanceState, userId: number): Task {
  const step = state.steps[state.current];
  const task = step.tasks.find((t) => t.userId === userId && t.status === 'pending');
  if (!task) refuse(40301, '当前没有需要您处理的审批');
  return task as Task;
}

/** Closes the instance: every open task cancelled, the end logged. */
function finish(state: InstanceState, status: InstanceStatus, log: LogEntry[]): void {
  for (const step of state.steps) for (const t of step.tasks) if (t.status === 'pending' || t.status === 'waiting') t.status = 'cancelled';
  state.status = status;
  if (status === INSTANCE_STATUS.approved) state.current = state.steps.length;
  log.push({ kind: 'finish', userId: 0, step: Math.min(state.current, state.steps.length - 1), comment: '', status });
}

/** After an approval: the next task (依次), the next step, or the end. */
function advance(state: InstanceState, log: LogEntry[]): void {
  const step = state.steps[state.current];
  const done =
    step.mode === 'any'
      ? step.tasks.some((t) => t.status === 'approved')
      : step.tasks.every((t) => t.status === 'approved' || t.status === 'transferred' || t.status === 'cancelled');
  if (!done) {
    if (step.mode === 'sequential' && !step.tasks.some((t) => t.status === 'pending')) {
      const next = step.tasks.find((t) => t.status === 'waiting');
      if (next) next.status = 'pending';
    }
    return;
  }
  for (const t of step.tasks) if (t.status === 'pending' || t.status === 'waiting') t.status = 'cancelled';
  if (state.current + 1 >= state.steps.length) {
    finish(state, INSTANCE_STATUS.approved, log);
    return;
  }
  state.current += 1;
  const next = state.steps[state.current];
  next.tasks = openTasks(next.mode, next.approvers);
}

/**
 * Applies one action. Returns the new state (version + 1) and the log entries to append;
 * throws TransitionError when the action is not allowed now.
 */
export function applyAction(previous: InstanceState, action: Action, rules: Rules, log: readonly LogEntry[] = []): { state: InstanceState; log: LogEntry[] } {
  if (action.kind !== 'comment' && previous.status !== INSTANCE_STATUS.processing) refuse(40901, '该审批已结束，不能再处理');
  const state = clone(previous);
  state.version = previous.version + 1;
  const out: LogEntry[] = [];
  const comment = (action.comment ?? '').trim();
  const at = Math.min(state.current, state.steps.length - 1);

  switch (action.kind) {
    case 'approve': {
      pendingTaskOf(state, action.userId).status = 'approved';
      out.push({ kind: 'approve', userId: action.userId, step: at, comment });
      advance(state, out);
      break;
    }
    case 'reject': {
      pendingTaskOf(state, action.userId).status = 'rejected';
      out.push({ kind: 'reject', userId: action.userId, step: at, comment });
      finish(state, INSTANCE_STATUS.rejected, out);
      break;
    }
    case 'return': {
      pendingTaskOf(state, action.userId).status = 'returned';
      if (!Number.isInteger(action.toStep) || action.toStep < 0 || action.toStep >= state.current) refuse(40001, '只能退回到之前的步骤');
      out.push({ kind: 'return', userId: action.userId, step: at, comment, target: action.toStep });
      // the state holds the round being decided; the log keeps the earlier ones
      for (let i = action.toStep; i <= state.current; i++) state.steps[i].tasks = [];
      state.current = action.toStep;
      const back = state.steps[action.toStep];
      back.tasks = openTasks(back.mode, back.approvers);
      break;
    }
    case 'transfer': {
      if (action.to === action.userId) refuse(40001, '不能转交给自己');
      const step = state.steps[state.current];
      const task = pendingTaskOf(state, action.userId);
      if (step.tasks.some((t) => t.userId === action.to && (t.status === 'pending' || t.status === 'waiting'))) refuse(40001, '对方已是当前步骤的审批人');
      task.status = 'transferred';
      step.tasks.splice(step.tasks.indexOf(task) + 1, 0, { userId: action.to, status: 'pending', from: action.userId });
      out.push({ kind: 'transfer', userId: action.userId, step: at, comment, target: action.to });
      break;
    }
    case 'addApprover': {
      const step = state.steps[state.current];
      const task = pendingTaskOf(state, action.userId);
      if (step.tasks.some((t) => t.userId === action.add && (t.status === 'pending' || t.status === 'waiting'))) refuse(40001, '对方已是当前步骤的审批人');
      // 加签 after oneself: in 依次 the added person decides next, otherwise alongside
      step.tasks.splice(step.tasks.indexOf(task) + 1, 0, { userId: action.add, status: step.mode === 'sequential' ? 'waiting' : 'pending', from: action.userId });
      out.push({ kind: 'addApprover', userId: action.userId, step: at, comment, target: action.add });
      break;
    }
    case 'revoke': {
      if (action.userId !== rules.initiatorId) refuse(40301, '只有发起人可以撤销');
      const rule = rules.revoke ?? 'untouched';
      if (rule === 'never') refuse(40301, '该流程不允许撤销');
      if (rule === 'untouched' && touched(log)) refuse(40901, '审批人已处理，不能再撤销');
      out.push({ kind: 'revoke', userId: action.userId, step: at, comment });
      finish(state, INSTANCE_STATUS.revoked, out);
      break;
    }
    case 'comment': {
      if (!comment) refuse(40001, '请输入评论内容');
      out.push({ kind: 'comment', userId: action.userId, step: at, comment });
      break;
    }
  }
  return { state, log: out };
}

/**
 * 离职交接: `to` takes over what `from` still has to do on a running instance. A pending task of
 * `from` is handed over as 转交 does (logged as a transfer by `from`, with `comment`); when `to`
 * already holds an open task of that step, `from`'s task is closed as transferred without a
 * second task for `to`. A waiting task of `from` becomes `to`'s (cancelled when `to` already
 * waits there), and `to` replaces `from` among the approvers of every step (the later ones, and
 * the earlier ones a 退回 would open again). Never ends the instance (`to` keeps an open task
 * wherever `from` had one). `changed` is false when `from` has no place left on the route.
 */
export function handOverTasks(
  previous: InstanceState,
  from: number,
  to: number,
  comment: string,
): { state: InstanceState; log: LogEntry[]; changed: boolean; transferred: number } {
  const unchanged = { state: previous, log: [], changed: false, transferred: 0 };
  if (previous.status !== INSTANCE_STATUS.processing || from === to) return unchanged;
  const state = clone(previous);
  const out: LogEntry[] = [];
  let changed = false;
  let transferred = 0;
  let closedAlone = false;
  const at = Math.min(state.current, state.steps.length - 1);
  const step = state.steps[state.current];
  const holdsOpen = (userId: number) => step.tasks.some((t) => t.userId === userId && (t.status === 'pending' || t.status === 'waiting'));
  for (const task of [...step.tasks]) {
    if (task.userId !== from) continue;
    if (task.status === 'pending') {
      const already = holdsOpen(to);
      task.status = 'transferred';
      if (already) closedAlone = true;
      else step.tasks.splice(step.tasks.indexOf(task) + 1, 0, { userId: to, status: 'pending', from });
      out.push({ kind: 'transfer', userId: from, step: at, comment: comment.trim(), target: to });
      transferred++;
      changed = true;
    } else if (task.status === 'waiting') {
      if (holdsOpen(to)) task.status = 'cancelled';
      else Object.assign(task, { userId: to, from });
      changed = true;
    }
  }
  for (const s of state.steps) {
    if (!s.approvers.includes(from)) continue;
    s.approvers = unique(s.approvers.map((id) => (id === from ? to : id)));
    changed = true;
  }
  if (!changed) return unchanged;
  // 依次: with the task closed and none made, the next one in line decides
  if (closedAlone) advance(state, out);
  state.version = previous.version + 1;
  return { state, log: out, changed, transferred };
}
