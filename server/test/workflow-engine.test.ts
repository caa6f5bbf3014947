// The approval engine's transitions: each step mode, reject, return, transfer, add an approver,
// revoke, the fallback to the flow admins, and a decision taken twice on one state.
import {
  allApprovers,
  applyAction,
  INSTANCE_STATUS,
  pendingApprovers,
  startInstance,
  TransitionError,
  type Action,
  type InstanceState,
  type LogEntry,
  type RouteStep,
} from '../src/modules/workflow/engine';

const INITIATOR = 1;
const rules = { initiatorId: INITIATOR };

/** Applies actions in turn, keeping the log; returns the last state and the whole log. */
function run(route: RouteStep[], actions: Action[], fallback: number[] = []) {
  let { state, log } = startInstance(route, fallback, INITIATOR);
  for (const action of actions) {
    const next = applyAction(state, action, rules, log);
    state = next.state;
    log = [...log, ...next.log];
  }
  return { state, log };
}

const refused = (fn: () => unknown, code: number, message?: RegExp) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TransitionError);
    expect((e as TransitionError).code).toBe(code);
    if (message) expect((e as TransitionError).message).toMatch(message);
    return;
  }
  throw new Error('the transition was not refused');
};

const kinds = (log: LogEntry[]) => log.map((e) => e.kind);

describe('step modes', () => {
  test('依次: one approver after another, then the next step, then approved', () => {
    const route: RouteStep[] = [
      { name: '部门审批', mode: 'sequential', approvers: [10, 11] },
      { name: '财务审批', mode: 'sequential', approvers: [20] },
    ];
    let { state, log } = startInstance(route, [], INITIATOR);
    expect(pendingApprovers(state)).toEqual([10]);
    refused(() => applyAction(state, { kind: 'approve', userId: 11 }, rules, log), 40301);
    ({ state } = applyAction(state, { kind: 'approve', userId: 10, comment: '同意' }, rules, log));
    expect(pendingApprovers(state)).toEqual([11]);
    expect(state.current).toBe(0);
    const second = applyAction(state, { kind: 'approve', userId: 11 }, rules, log);
    state = second.state;
    log = [...log, ...second.log];
    expect(state.current).toBe(1);
    expect(pendingApprovers(state)).toEqual([20]);
    const last = applyAction(state, { kind: 'approve', userId: 20 }, rules, log);
    expect(last.state.status).toBe(INSTANCE_STATUS.approved);
    expect(pendingApprovers(last.state)).toEqual([]);
    expect(kinds(last.log)).toEqual(['approve', 'finish']);
    expect(last.log[1].status).toBe(INSTANCE_STATUS.approved);
    expect(last.state.version).toBe(4);
  });

  test('会签: every approver must approve; the step finishes once', () => {
    const { state } = run([{ name: '会签', mode: 'all', approvers: [10, 11, 12] }], [
      { kind: 'approve', userId: 11 },
      { kind: 'approve', userId: 10 },
    ]);
    expect(state.status).toBe(INSTANCE_STATUS.processing);
    expect(pendingApprovers(state)).toEqual([12]);
    const done = applyAction(state, { kind: 'approve', userId: 12 }, rules);
    expect(done.state.status).toBe(INSTANCE_STATUS.approved);
    refused(() => applyAction(done.state, { kind: 'approve', userId: 12 }, rules), 40901);
  });

  test('或签: the first approval passes the step and closes the others’ tasks', () => {
    const { state, log } = run(
      [
        { name: '或签', mode: 'any', approvers: [10, 11] },
        { name: '终审', mode: 'sequential', approvers: [30] },
      ],
      [{ kind: 'approve', userId: 11 }],
    );
    expect(state.current).toBe(1);
    expect(state.steps[0].tasks.map((t) => [t.userId, t.status])).toEqual([
      [10, 'cancelled'],
      [11, 'approved'],
    ]);
    // the other approver of the 或签 step can no longer decide
    refused(() => applyAction(state, { kind: 'approve', userId: 10 }, rules, log), 40301);
  });

  test('two approvers acting on the same stored state: both transitions are computed, and the store keeps one (same base version)', () => {
    const { state } = startInstance([{ name: '或签', mode: 'any', approvers: [10, 11] }], [], INITIATOR);
    const a = applyAction(state, { kind: 'approve', userId: 10 }, rules);
    const b = applyAction(state, { kind: 'approve', userId: 11 }, rules);
    // both claim the version after the stored one: a version-checked write accepts only the first
    expect(a.state.version).toBe(state.version + 1);
    expect(b.state.version).toBe(state.version + 1);
    // the loser, re-applied on the winner's state, is refused
    refused(() => applyAction(a.state, { kind: 'approve', userId: 11 }, rules), 40901);
  });
});

describe('actions', () => {
  test('驳回 ends the instance as rejected and closes every open task', () => {
    const { state, log } = run(
      [
        { name: '会签', mode: 'all', approvers: [10, 11] },
        { name: '终审', mode: 'sequential', approvers: [30] },
      ],
      [{ kind: 'reject', userId: 11, comment: '材料不全' }],
    );
    expect(state.status).toBe(INSTANCE_STATUS.rejected);
    expect(state.steps[0].tasks.map((t) => t.status)).toEqual(['cancelled', 'rejected']);
    expect(kinds(log)).toEqual(['start', 'reject', 'finish']);
    expect(log[1].comment).toBe('材料不全');
    refused(() => applyAction(state, { kind: 'approve', userId: 10 }, rules, log), 40901);
  });

  test('退回 to an earlier step starts it again with its approvers; only earlier steps', () => {
    const route: RouteStep[] = [
      { name: '一审', mode: 'all', approvers: [10, 11] },
      { name: '二审', mode: 'sequential', approvers: [20] },
    ];
    const { state, log } = run(route, [
      { kind: 'approve', userId: 10 },
      { kind: 'approve', userId: 11 },
    ]);
    expect(state.current).toBe(1);
    refused(() => applyAction(state, { kind: 'return', userId: 20, toStep: 1 }, rules, log), 40001);
    const back = applyAction(state, { kind: 'return', userId: 20, toStep: 0, comment: '请补充' }, rules, log);
    expect(back.state.current).toBe(0);
    expect(pendingApprovers(back.state).sort()).toEqual([10, 11]);
    expect(back.log).toEqual([{ kind: 'return', userId: 20, step: 1, comment: '请补充', target: 0 }]);
    const again = run(route, [
      { kind: 'approve', userId: 10 },
      { kind: 'approve', userId: 11 },
      { kind: 'return', userId: 20, toStep: 0 },
      { kind: 'approve', userId: 11 },
      { kind: 'approve', userId: 10 },
      { kind: 'approve', userId: 20 },
    ]);
    expect(again.state.status).toBe(INSTANCE_STATUS.approved);
  });

  test('转交 hands the task over: the new person decides, the old one no longer can', () => {
    const { state, log } = run([{ name: '审批', mode: 'sequential', approvers: [10, 11] }], [{ kind: 'transfer', userId: 10, to: 15, comment: '出差' }]);
    expect(pendingApprovers(state)).toEqual([15]);
    refused(() => applyAction(state, { kind: 'approve', userId: 10 }, rules, log), 40301);
    refused(() => applyAction(state, { kind: 'transfer', userId: 15, to: 15 }, rules, log), 40001);
    refused(() => applyAction(state, { kind: 'transfer', userId: 15, to: 11 }, rules, log), 40001);
    const after = run([{ name: '审批', mode: 'sequential', approvers: [10, 11] }], [
      { kind: 'transfer', userId: 10, to: 15 },
      { kind: 'approve', userId: 15 },
    ]);
    expect(pendingApprovers(after.state)).toEqual([11]);
    expect(allApprovers(after.state)).toEqual([10, 11, 15]);
  });

  test('加签 adds an approver after oneself: next in 依次, alongside in 会签', () => {
    const seq = run([{ name: '审批', mode: 'sequential', approvers: [10, 11] }], [
      { kind: 'addApprover', userId: 10, add: 16 },
      { kind: 'approve', userId: 10 },
    ]);
    expect(pendingApprovers(seq.state)).toEqual([16]);
    const all = run([{ name: '会签', mode: 'all', approvers: [10, 11] }], [{ kind: 'addApprover', userId: 10, add: 16 }]);
    expect(pendingApprovers(all.state).sort()).toEqual([10, 11, 16]);
    const finished = run([{ name: '会签', mode: 'all', approvers: [10, 11] }], [
      { kind: 'addApprover', userId: 10, add: 16 },
      { kind: 'approve', userId: 10 },
      { kind: 'approve', userId: 11 },
    ]);
    expect(finished.state.status).toBe(INSTANCE_STATUS.processing);
    expect(applyAction(finished.state, { kind: 'approve', userId: 16 }, rules).state.status).toBe(INSTANCE_STATUS.approved);
  });

  test('撤销: the initiator only, while no approver has acted (or as the definition allows)', () => {
    const route: RouteStep[] = [{ name: '审批', mode: 'sequential', approvers: [10, 11] }];
    const fresh = startInstance(route, [], INITIATOR);
    refused(() => applyAction(fresh.state, { kind: 'revoke', userId: 10 }, rules, fresh.log), 40301);
    const revoked = applyAction(fresh.state, { kind: 'revoke', userId: INITIATOR, comment: '不需要了' }, rules, fresh.log);
    expect(revoked.state.status).toBe(INSTANCE_STATUS.revoked);
    expect(revoked.state.steps[0].tasks.every((t) => t.status === 'cancelled')).toBe(true);

    const acted = run(route, [{ kind: 'approve', userId: 10 }]);
    refused(() => applyAction(acted.state, { kind: 'revoke', userId: INITIATOR }, rules, acted.log), 40901, /已处理/);
    expect(applyAction(acted.state, { kind: 'revoke', userId: INITIATOR }, { ...rules, revoke: 'processing' }, acted.log).state.status).toBe(INSTANCE_STATUS.revoked);
    refused(() => applyAction(fresh.state, { kind: 'revoke', userId: INITIATOR }, { ...rules, revoke: 'never' }, fresh.log), 40301);
  });

  test('comments go on the timeline at any time, without changing the state', () => {
    const { state, log } = run([{ name: '审批', mode: 'sequential', approvers: [10] }], [{ kind: 'approve', userId: 10 }]);
    const c = applyAction(state, { kind: 'comment', userId: 99, comment: '已归档' }, rules, log);
    expect(c.log).toEqual([{ kind: 'comment', userId: 99, step: 0, comment: '已归档' }]);
    expect(c.state.status).toBe(INSTANCE_STATUS.approved);
    refused(() => applyAction(state, { kind: 'comment', userId: 99, comment: '  ' }, rules, log), 40001);
  });
});

describe('starting', () => {
  test('a step with nobody to approve goes to the flow admins and says so; with no admin either, it cannot start', () => {
    const { state } = startInstance(
      [
        { name: '主管审批', mode: 'sequential', approvers: [] },
        { name: '财务', mode: 'any', approvers: [20, 20, 21] },
      ],
      [90, 91],
      INITIATOR,
    );
    // any one of the flow admins decides the step
    expect(state.steps[0]).toMatchObject({ approvers: [90, 91], fallback: true, mode: 'any' });
    expect(state.steps[1].approvers).toEqual([20, 21]);
    expect(pendingApprovers(state)).toEqual([90, 91]);
    refused(() => startInstance([{ name: '主管审批', mode: 'all', approvers: [] }], [], INITIATOR), 40001, /没有审批人/);
    refused(() => startInstance([], [90], INITIATOR), 40001);
  });

  test('transitions never change the state they are given', () => {
    const { state } = startInstance([{ name: '审批', mode: 'all', approvers: [10, 11] }], [], INITIATOR);
    const snapshot: InstanceState = JSON.parse(JSON.stringify(state));
    applyAction(state, { kind: 'approve', userId: 10 }, rules);
    applyAction(state, { kind: 'transfer', userId: 11, to: 12 }, rules);
    expect(state).toEqual(snapshot);
  });
});
