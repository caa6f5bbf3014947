// The words of 云文档's approvals: states, step modes, boxes, approver rules and field types,
// and the paths of the remote's pages.
import { RoutePath, type WorkflowApproverRule, type WorkflowBox, type WorkflowFieldType, type WorkflowRevokeRule, type WorkflowStatus, type WorkflowStepMode, type WorkflowTaskStatus } from '@app/shared';

export const STATUS_META: Record<WorkflowStatus, { label: string; color: string }> = {
  1: { label: '审批中', color: 'processing' },
  2: { label: '已通过', color: 'green' },
  3: { label: '已驳回', color: 'red' },
  4: { label: '已撤销', color: 'default' },
};
export const STATUSES: WorkflowStatus[] = [1, 2, 3, 4];

export const MODE_LABELS: Record<WorkflowStepMode, string> = { sequential: '依次审批', all: '会签', any: '或签' };
export const MODE_HINTS: Record<WorkflowStepMode, string> = {
  sequential: '按顺序逐个审批',
  all: '需所有审批人同意',
  any: '一名审批人同意即可',
};

export const TASK_STATUS_LABELS: Record<WorkflowTaskStatus, string> = {
  waiting: '等待中',
  pending: '待处理',
  approved: '已同意',
  rejected: '已驳回',
  transferred: '已转交',
  returned: '已退回',
  cancelled: '已取消',
};
export const TASK_STATUS_COLORS: Record<WorkflowTaskStatus, string> = {
  waiting: 'default',
  pending: 'processing',
  approved: 'green',
  rejected: 'red',
  transferred: 'purple',
  returned: 'orange',
  cancelled: 'default',
};

export const BOXES: WorkflowBox[] = ['todo', 'done', 'mine', 'cc'];
export const BOX_LABELS: Record<WorkflowBox, string> = { todo: '待我审批', done: '我已审批', mine: '我发起的', cc: '抄送我的' };
export const BOX_EMPTY: Record<WorkflowBox, string> = {
  todo: '暂时没有需要你审批的事项',
  done: '你还没有审批过流程',
  mine: '你还没有发起过审批',
  cc: '暂时没有抄送给你的审批',
};

export const REVOKE_LABELS: Record<WorkflowRevokeRule, string> = {
  untouched: '审批人处理前可撤销',
  processing: '审批中可撤销',
  never: '不可撤销',
};

export type RuleType = WorkflowApproverRule['type'];
export const RULE_LABELS: Record<RuleType, string> = {
  user: '指定成员',
  deptLeader: '部门负责人',
  deptMembers: '部门成员',
  groupMembers: '用户组成员',
  initiatorLeader: '发起人的部门负责人',
  initiatorChoice: '发起人自选',
};
export const RULE_TYPES = Object.keys(RULE_LABELS) as RuleType[];

export const FIELD_TYPE_LABELS: Record<WorkflowFieldType, string> = {
  text: '单行文本',
  textarea: '多行文本',
  number: '数字',
  date: '日期',
  select: '下拉选择',
};

export const FALLBACK_NOTE = '无审批人，转流程管理员';

/** The remote's pages (it is mounted at /workflow by the shell and when it runs alone). */
export const paths = {
  list: (box: WorkflowBox = 'todo') => `${RoutePath.Workflow}/list/${box}`,
  definitions: `${RoutePath.Workflow}/list/definitions`,
  details: (id: string) => `${RoutePath.Workflow}/informationDetails?id=${encodeURIComponent(id)}`,
};

/** Names joined the Chinese way. */
export const joinNames = (list: Array<{ name: string }>) => list.map((u) => u.name).join('、');
