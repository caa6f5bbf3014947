// 云文档 approvals (api-contract.md, "Approvals"; docs/integration.md, "Approvals"). Definitions
// are made by flow admins; an instance stores the definition as it started, its route of steps
// resolved to users, and the engine's state. Every action runs the engine's pure transition
// over the stored state inside one transaction and writes it only if the state's version has
// not moved meanwhile (else it reads again and retries), so two approvers at the same moment
// cannot both pass a 或签 step. The action log is appended, never rewritten. A module that
// starts instances (the ferry) is told of their end, durably: an end counts as handled only
// once its handler has succeeded, and a sweep retries the others.
import type { Kysely } from 'kysely';
import type { Database, UserRow, WorkflowDefinitionRow, WorkflowFileRow, WorkflowInstanceRow } from '../../db/types';
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { parseDateTime, type TimeFormatter } from '../../lib/time';
import { contentTypeOf, type Content } from '../downloads/http';
import { LEVEL } from '../folders/rights';
import type { FoldersService } from '../folders/service';
import type { FeaturePolicy } from '../settings/schemas';
import { recordEvent } from '../notices/events';
import { acquireBlob } from '../versions/blobs';
import { masterVersionsOf } from '../versions/repository';
import type { BlobStore } from '../versions/blobs';
import { WORKFLOW_FILE_NUMBER } from '../web/service';
import { activeUsers, checkRules, flowAdmins, nameRules, resolveRules, userNames } from './approvers';
import {
  allApprovers,
  applyAction,
  handOverTasks,
  INSTANCE_STATUS,
  pendingApprovers,
  startInstance,
  touched,
  TransitionError,
  type Action,
  type InstanceState,
  type InstanceStatus,
  type LogEntry,
  type RouteStep as EngineStep,
} from './engine';
import {
  actionsOf,
  appendActions,
  countBoxes,
  deleteDefinition,
  dueAutoReminders,
  filesOf,
  findDefinition,
  findInstance,
  insertDefinition,
  insertFiles,
  insertInstance,
  isParticipant,
  listDefinitions,
  lockInstance,
  markEndHandled,
  pageInstances,
  saveState,
  setParticipants,
  toLog,
  unhandledEnds,
  updateDefinition,
  type Role,
} from './repository';
import {
  COMMENT_MAX,
  FIELD_TEXT_MAX,
  TITLE_MAX,
  type ActionBody,
  type Counts,
  type Definition,
  type DefinitionBody,
  type FieldDef,
  type InstanceDetail,
  type InstanceRow,
  type InstancesQuery,
  type RouteStep,
  type StartBody,
  type StepDef,
  type WorkflowUser,
} from './schemas';

export const INSTANCE_NOT_FOUND = '审批不存在或无权查看';
export const DEFINITION_NOT_FOUND = '流程不存在或已删除';
const ONLY_FLOW_ADMINS = '只有流程管理员可以管理流程';

/** What an instance stores of its definition: the version it started with, never changed later. */
export interface DefinitionSnapshot {
  name: string;
  category: string;
  fields: FieldDef[];
  allowFiles: boolean;
  steps: StepDef[];
  revoke: DefinitionBody['revoke'];
  /** the CC recipients, resolved when the instance started */
  ccUsers: number[];
}

/** How an instance ended, as its source module is told. */
export interface InstanceEnd {
  instanceId: number;
  source: string;
  sourceId: string;
  status: InstanceStatus;
  initiatorId: number;
  finishedAt: number;
}

/** Must be idempotent: an end may be delivered again after a crash or by a second instance. */
export type EndHandler = (end: InstanceEnd) => Promise<void>;

export type ActionName = 'Approve' | 'Reject' | 'Revoke' | 'Transfer' | 'Return' | 'AddApprover' | 'Comment';

/** Reads again when another action got there first, at most this often. */
const MAX_RETRIES = 5;
/** 催办: each approver of a request is reminded at most this often */
const REMIND_EVERY_MS = 60 * 60 * 1000;
/** 自动催办: at most after this many hours (a week) */
export const AUTO_REMIND_MAX_HOURS = 168;

const isFlowAdmin = (user: UserRow) => user.is_flow_admin === 1;
const wireId = (id: number | string) => String(id);

function parseBody(row: WorkflowDefinitionRow): Omit<DefinitionBody, 'name' | 'category' | 'description' | 'enabled'> {
  return JSON.parse(row.body);
}

function cleanText(raw: string, label: string, max: number, required: boolean): string {
  const text = raw.trim();
  if (required && !text) throw badRequest(`请填写${label}`);
  if ([...text].length > max) throw badRequest(`${label}不能超过 ${max} 个字符`);
  return text;
}

function validDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/**
 * Records the event `workflow.changed` of a start (`before` null) or an action: the approvers
 * newly asked (after a return, the whole step returned to, asked afresh) and those no longer
 * asked (or asked afresh).
 */
async function recordChange(
  trx: Kysely<Database>,
  c: { instanceId: number; title: string; initiatorId: number; actorId: number; action: string; before: InstanceState | null; after: InstanceState; cc: number[] },
  now: number,
): Promise<void> {
  const waitedFor = c.before ? pendingApprovers(c.before) : [];
  const waiting = pendingApprovers(c.after);
  const asked = c.action === 'return' ? waiting : waiting.filter((u) => !waitedFor.includes(u));
  await recordEvent(
    trx,
    'workflow.changed',
    {
      instanceId: c.instanceId,
      title: c.title,
      initiatorId: c.initiatorId,
      actorId: c.actorId,
      action: c.action,
      status: c.after.status,
      newTodo: asked,
      goneTodo: waitedFor.filter((u) => !waiting.includes(u) || asked.includes(u)),
      cc: c.cc,
    },
    now,
  );
}

export class WorkflowService {
  private readonly handlers = new Map<string, EndHandler>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly blobs: BlobStore,
    private readonly formatTime: TimeFormatter,
    private readonly tzName: string,
  ) {}

  // ---- definitions ---------------------------------------------------------------------------

  private async toDefinition(row: WorkflowDefinitionRow): Promise<Definition> {
    const body = parseBody(row);
    return {
      id: wireId(row.id),
      name: row.name,
      category: row.category,
      description: row.description,
      enabled: row.enabled === 1,
      fields: body.fields,
      allowFiles: body.allowFiles,
      steps: await Promise.all(body.steps.map(async (s) => ({ ...s, approvers: await nameRules(this.db, s.approvers) }))),
      cc: await nameRules(this.db, body.cc),
      revoke: body.revoke,
      autoRemindHours: Number(row.auto_remind_hours),
      version: row.version,
      createdAt: this.formatTime(row.created_at),
      updatedAt: this.formatTime(row.updated_at),
    };
  }

  /** GET /api/Workflow/Definitions: the enabled ones; a flow admin also sees the disabled ones. */
  async definitions(user: UserRow): Promise<Definition[]> {
    const rows = await listDefinitions(this.db, !isFlowAdmin(user));
    return Promise.all(rows.map((r) => this.toDefinition(r)));
  }

  private async checkDefinition(body: DefinitionBody) {
    const name = cleanText(body.name, '流程名称', 50, true);
    const category = cleanText(body.category, '分类', 50, false);
    const description = cleanText(body.description, '说明', 500, false);
    const keys = new Set<string>();
    const fields = body.fields.map((f) => {
      if (keys.has(f.key)) throw badRequest(`字段标识“${f.key}”重复`);
      keys.add(f.key);
      const label = cleanText(f.label, '字段名称', 50, true);
      const options = f.type === 'select' ? [...new Set((f.options ?? []).map((o) => o.trim()).filter(Boolean))] : undefined;
      if (f.type === 'select' && !options?.length) throw badRequest(`下拉字段“${label}”至少需要一个选项`);
      return { key: f.key, label, type: f.type, required: f.required, ...(options ? { options } : {}) };
    });
    const steps: StepDef[] = [];
    for (const [i, s] of body.steps.entries()) {
      const stepName = cleanText(s.name, `第 ${i + 1} 步的名称`, 50, true);
      steps.push({ name: stepName, mode: s.mode, approvers: await checkRules(this.db, s.approvers, `步骤“${stepName}”`) });
    }
    const cc = await checkRules(this.db, body.cc, '抄送');
    const hours = body.autoRemindHours;
    if (hours !== undefined && !(Number.isInteger(hours) && hours >= 0 && hours <= AUTO_REMIND_MAX_HOURS)) {
      throw badRequest(`自动催办时间应为 0 到 ${AUTO_REMIND_MAX_HOURS} 之间的整数小时（0 表示不自动催办）`);
    }
    return {
      name,
      category,
      description,
      enabled: body.enabled ? (1 as const) : (0 as const),
      body: JSON.stringify({ fields, allowFiles: body.allowFiles, steps, cc, revoke: body.revoke }),
      // absent: 0 for a new flow, unchanged for an edited one
      ...(hours !== undefined ? { auto_remind_hours: hours } : {}),
    };
  }

  async createDefinition(user: UserRow, body: DefinitionBody): Promise<Definition> {
    if (!isFlowAdmin(user)) throw forbidden(ONLY_FLOW_ADMINS);
    const values = await this.checkDefinition(body);
    return this.toDefinition(await insertDefinition(this.db, { ...values, created_by: user.id, created_at: Date.now() }));
  }

  /** PUT: a new version; instances already started keep theirs. */
  async updateDefinition(user: UserRow, idText: string, body: DefinitionBody): Promise<Definition> {
    if (!isFlowAdmin(user)) throw forbidden(ONLY_FLOW_ADMINS);
    const id = parseId(idText);
    const values = await this.checkDefinition(body);
    const row = id === null ? undefined : await updateDefinition(this.db, id, { ...values, updated_at: Date.now() });
    if (!row) throw notFound(DEFINITION_NOT_FOUND);
    return this.toDefinition(row);
  }

  /** DELETE: gone from the lists and from 发起审批; its instances keep running. */
  async deleteDefinition(user: UserRow, idText: string): Promise<{ id: string }> {
    if (!isFlowAdmin(user)) throw forbidden(ONLY_FLOW_ADMINS);
    const id = parseId(idText);
    if (id === null || !(await deleteDefinition(this.db, id, Date.now()))) throw notFound(DEFINITION_NOT_FOUND);
    return { id: idText };
  }

  /**
   * First start: one ready-made flow, 通用审批 (a reason, files, the initiator's department
   * leader, else the flow admins), so that approvals work before anyone has defined a flow.
   */
  async seedDefault(adminId: number): Promise<void> {
    const any = await this.db.selectFrom('workflow_definitions').select('id').limit(1).executeTakeFirst();
    if (any) return;
    const body: DefinitionBody = {
      name: '通用审批',
      category: '通用',
      description: '任何需要领导同意的事项：由发起人的部门负责人审批，部门没有负责人时由流程管理员审批。',
      enabled: true,
      fields: [{ key: 'content', label: '申请内容', type: 'textarea', required: true }],
      allowFiles: true,
      steps: [{ name: '部门负责人审批', mode: 'sequential', approvers: [{ type: 'initiatorLeader' }] }],
      cc: [],
      revoke: 'untouched',
    };
    await insertDefinition(this.db, { ...(await this.checkDefinition(body)), created_by: adminId, created_at: Date.now() });
  }

  /**
   * A module's ready-made flow (the ferry's 文件摆渡审批), made once: never again after a flow
   * admin deleted it (the module then asks for another).
   */
  async ensureDefinition(adminId: number, body: DefinitionBody): Promise<void> {
    const made = await this.db
      .selectFrom('workflow_definitions')
      .select('id')
      .where('name', '=', body.name)
      .where('category', '=', body.category)
      .executeTakeFirst();
    if (made) return;
    await insertDefinition(this.db, { ...(await this.checkDefinition(body)), created_by: adminId, created_at: Date.now() });
  }

  /** The id of the enabled flow of that name and category (null when there is none). */
  async definitionIdByName(name: string, category: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('workflow_definitions')
      .select('id')
      .where('name', '=', name)
      .where('category', '=', category)
      .where('deleted', '=', 0)
      .where('enabled', '=', 1)
      .orderBy('id')
      .executeTakeFirst();
    return row ? wireId(row.id) : null;
  }

  /** Whether a flow may be started (exists, enabled). */
  async definitionUsable(idText: string): Promise<boolean> {
    return this.usableDefinition(idText).then(
      () => true,
      () => false,
    );
  }

  /** A form for a flow started by a module: every text field carries `text` (the ferry's reason). */
  async formFor(idText: string, text: string): Promise<Record<string, string | number | null>> {
    const spec = parseBody(await this.usableDefinition(idText));
    const form: Record<string, string | number | null> = {};
    for (const f of spec.fields) {
      if (f.type === 'textarea') form[f.key] = [...text].slice(0, FIELD_TEXT_MAX).join('');
      else if (f.type === 'text') form[f.key] = [...text].slice(0, 200).join('');
    }
    return form;
  }

  /** The comment of the action that ended an instance (a rejection's reason). */
  async lastComment(instanceId: number): Promise<string> {
    const row = await this.db
      .selectFrom('workflow_actions')
      .select('comment')
      .where('instance_id', '=', instanceId)
      .where('kind', 'in', ['reject', 'revoke'])
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.comment ?? '';
  }

  private async usableDefinition(idText: string): Promise<WorkflowDefinitionRow> {
    const id = parseId(idText);
    const row = id === null ? undefined : await findDefinition(this.db, id);
    if (!row) throw notFound(DEFINITION_NOT_FOUND);
    if (row.enabled !== 1) throw badRequest('该流程已停用，不能发起');
    return row;
  }

  /** The steps resolved for `initiator`; initiatorChoice steps take `chosen[step index]`. */
  private async resolveRoute(steps: readonly StepDef[], initiator: UserRow, chosen: Record<string, number[]>) {
    const admins = await flowAdmins(this.db);
    const out: Array<EngineStep & { choose: boolean; fallback: boolean }> = [];
    for (const [i, s] of steps.entries()) {
      const approvers = await resolveRules(this.db, s.approvers, initiator, chosen[String(i)] ?? []);
      const choose = s.approvers.some((r) => r.type === 'initiatorChoice');
      out.push({ name: s.name, mode: s.mode, approvers, choose, fallback: false });
    }
    return { steps: out, admins };
  }

  /** GET /api/Workflow/Definitions/{id}/Route: who would approve, were the caller to start it now. */
  async route(user: UserRow, idText: string): Promise<RouteStep[]> {
    const row = await this.usableDefinition(idText);
    const { steps, admins } = await this.resolveRoute(parseBody(row).steps, user, {});
    const names = await userNames(this.db, [...steps.flatMap((s) => s.approvers), ...admins]);
    const users = (ids: number[]) => ids.map((id) => ({ userId: wireId(id), name: names.get(id) ?? '' }));
    return steps.map((s) => {
      const fallback = !s.approvers.length && !s.choose;
      return { name: s.name, mode: fallback ? 'any' : s.mode, approvers: users(fallback ? admins : s.approvers), choose: s.choose, fallback };
    });
  }

  // ---- starting --------------------------------------------------------------------------------

  private checkForm(fields: readonly FieldDef[], form: StartBody['form']): Record<string, string | number | null> {
    const out: Record<string, string | number | null> = {};
    for (const f of fields) {
      const raw = Object.prototype.hasOwnProperty.call(form, f.key) ? form[f.key] : null;
      const empty = raw === null || raw === undefined || (typeof raw === 'string' && !raw.trim());
      if (empty) {
        if (f.required) throw badRequest(`请填写“${f.label}”`);
        out[f.key] = null;
        continue;
      }
      if (f.type === 'number') {
        const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
        if (!Number.isFinite(n)) throw badRequest(`“${f.label}”必须是数字`);
        out[f.key] = n;
      } else {
        const text = String(raw).trim();
        if (f.type === 'date' && !validDate(text)) throw badRequest(`“${f.label}”必须是 YYYY-MM-DD 格式的日期`);
        if (f.type === 'select' && !(f.options ?? []).includes(text)) throw badRequest(`“${f.label}”的值不在可选项中`);
        const max = f.type === 'textarea' ? FIELD_TEXT_MAX : 200;
        if ([...text].length > max) throw badRequest(`“${f.label}”不能超过 ${max} 个字符`);
        out[f.key] = text;
      }
    }
    return out;
  }

  /** The files to attach: visible files the initiator may download, with the version each has now. */
  private async attachable(user: UserRow, policy: FeaturePolicy, fileIds: readonly string[]): Promise<Omit<WorkflowFileRow, 'instance_id'>[]> {
    const ids = [...new Set(fileIds)];
    if (!ids.length) return [];
    if (ids.length > WORKFLOW_FILE_NUMBER) throw badRequest(`最多只能附加 ${WORKFLOW_FILE_NUMBER} 个文件`);
    const { items, rights } = await this.folders.itemsAndRights(user, ids, policy);
    for (const item of items) {
      if (item.type !== 'file') throw badRequest(`“${item.name}”不是文件，只能附加文件`);
      if (!rights.can(item, LEVEL.download)) throw forbidden(`没有“${item.name}”的下载权限，不能附加到审批`);
    }
    const masterOf = await masterVersionsOf(this.db, items.map((i) => i.id));
    const out: Omit<WorkflowFileRow, 'instance_id'>[] = [];
    for (const [position, item] of items.entries()) {
      const version = masterOf.get(item.id);
      if (!version) throw notFound(`“${item.name}”的内容不存在`);
      out.push({
        position,
        item_id: item.id,
        version_id: version.id,
        blob_id: version.blob_id,
        name: item.name,
        extension: item.extension,
        size: Number(version.size),
        md5: version.md5 ?? '',
      });
    }
    return out;
  }

  private parseChosen(steps: readonly StepDef[], chosen: StartBody['chosen']): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const [i, s] of steps.entries()) {
      if (!s.approvers.some((r) => r.type === 'initiatorChoice')) continue;
      const ids = (chosen?.[String(i)] ?? []).map((t) => Number(t));
      if (!ids.length) throw badRequest(`请为步骤“${s.name}”选择审批人`);
      out[String(i)] = [...new Set(ids)];
    }
    return out;
  }

  /**
   * POST /api/Workflow/Instances. `source`/`sourceId`: the module starting it (the ferry), told
   * of the end through onEnd.
   */
  async start(user: UserRow, body: StartBody, origin: { source: string; sourceId: string } = { source: '', sourceId: '' }): Promise<{ instanceId: string }> {
    const { policy } = await this.folders.context(user);
    if (!origin.source && !policy.workflow) throw forbidden('流程功能未开放');
    const def = await this.usableDefinition(body.definitionId);
    const spec = parseBody(def);
    const title = cleanText(body.title, '标题', TITLE_MAX, true);
    const form = this.checkForm(spec.fields, body.form);
    if (body.fileIds.length && !spec.allowFiles) throw badRequest('该流程不能附加文件');
    const files = await this.attachable(user, policy, body.fileIds);
    const chosen = this.parseChosen(spec.steps, body.chosen);
    const picked = [...new Set(Object.values(chosen).flat())];
    if ((await activeUsers(this.db, picked)).length !== picked.length) throw badRequest('所选的审批人不存在或已停用');
    const { steps, admins } = await this.resolveRoute(spec.steps, user, chosen);
    let started: ReturnType<typeof startInstance>;
    try {
      started = startInstance(steps, admins, user.id);
    } catch (err) {
      throw this.asAppError(err);
    }
    const snapshot: DefinitionSnapshot = {
      name: def.name,
      category: def.category,
      fields: spec.fields,
      allowFiles: spec.allowFiles,
      steps: spec.steps,
      revoke: spec.revoke,
      ccUsers: await resolveRules(this.db, spec.cc, user),
    };
    const now = Date.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const inst = await insertInstance(trx, {
        definition_id: def.id,
        definition_version: def.version,
        definition: JSON.stringify(snapshot),
        title,
        form: JSON.stringify(form),
        initiator_id: user.id,
        status: started.state.status,
        state: JSON.stringify(started.state),
        version: started.state.version,
        source: origin.source,
        source_id: origin.sourceId,
        created_at: now,
      });
      await insertFiles(trx, files.map((f) => ({ ...f, instance_id: inst.id })));
      // the attached content stays as long as the instance does, whatever happens to the file
      for (const f of files) await acquireBlob(trx, f.blob_id);
      await appendActions(trx, inst.id, started.log, now);
      await setParticipants(trx, inst.id, this.roles(started.state, started.log, snapshot), now);
      await recordChange(trx, { instanceId: inst.id, title, initiatorId: user.id, actorId: user.id, action: 'start', before: null, after: started.state, cc: snapshot.ccUsers }, now);
      return inst;
    });
    this.changed();
    return { instanceId: wireId(row.id) };
  }

  /** Who takes part in what role, from the state and the whole log. */
  private roles(state: InstanceState, log: readonly LogEntry[], snapshot: DefinitionSnapshot): Map<Role, number[]> {
    const decided = new Set(['approve', 'reject', 'return', 'transfer', 'addApprover']);
    const done = log.filter((e) => decided.has(e.kind)).map((e) => e.userId);
    const named = log.filter((e) => e.kind === 'transfer' || e.kind === 'addApprover').map((e) => e.target ?? 0);
    return new Map<Role, number[]>([
      ['todo', pendingApprovers(state)],
      ['done', done],
      ['cc', snapshot.ccUsers],
      ['route', [...allApprovers(state), ...done, ...named].filter((id) => id > 0)],
    ]);
  }

  // ---- reading ---------------------------------------------------------------------------------

  /** The instance if the caller may see it (initiator, anyone on the route, CC, flow admins), else 404. */
  private async visible(db: Kysely<Database>, user: UserRow, idText: string): Promise<WorkflowInstanceRow> {
    const id = parseId(idText);
    const row = id === null ? undefined : await findInstance(db, id);
    if (!row) throw notFound(INSTANCE_NOT_FOUND);
    if (row.initiator_id === user.id || isFlowAdmin(user) || (await isParticipant(db, row.id, user.id))) return row;
    throw notFound(INSTANCE_NOT_FOUND);
  }

  numberOf(row: Pick<WorkflowInstanceRow, 'id' | 'created_at'>): string {
    return `SP${this.formatTime(row.created_at).slice(0, 10).replace(/-/g, '')}${String(row.id).padStart(6, '0')}`;
  }

  private rowView(row: WorkflowInstanceRow, names: Map<number, string>, state: InstanceState = JSON.parse(row.state)): InstanceRow {
    const snapshot = JSON.parse(row.definition) as DefinitionSnapshot;
    const user = (id: number): WorkflowUser => ({ userId: wireId(id), name: names.get(id) ?? '' });
    return {
      instanceId: wireId(row.id),
      number: this.numberOf(row),
      title: row.title,
      definitionId: wireId(row.definition_id),
      definitionName: snapshot.name,
      category: snapshot.category,
      initiator: user(Number(row.initiator_id)),
      status: row.status,
      currentStep: state.status === INSTANCE_STATUS.processing ? state.steps[state.current].name : '',
      pending: pendingApprovers(state).map(user),
      createdAt: this.formatTime(row.created_at),
      updatedAt: this.formatTime(row.updated_at),
      finishedAt: row.finished_at === null ? null : this.formatTime(row.finished_at),
      source: row.source,
      sourceId: row.source_id,
    };
  }

  private dayStart(date: string): number {
    const ms = parseDateTime(`${date} 00:00:00`, this.tzName);
    if (ms === null) throw badRequest('日期格式应为 YYYY-MM-DD');
    return ms;
  }

  /** GET /api/Workflow/Instances?box= */
  async list(user: UserRow, q: InstancesQuery): Promise<{ data: InstanceRow[]; total: number }> {
    const keyword = q.keyword?.trim() || undefined;
    const number = keyword ? /^SP\d{8}(\d+)$/i.exec(keyword) : null;
    const fromMs = q.from ? this.dayStart(q.from) : undefined;
    const toMs = q.to ? this.dayStart(q.to) + 24 * 3600 * 1000 : undefined;
    const definitionId = q.definitionId ? Number(q.definitionId) : undefined;
    const { rows, total } = await pageInstances(
      this.db,
      { box: q.box, userId: user.id, status: q.status, definitionId, fromMs, toMs, keyword, numberId: number ? Number(number[1]) : undefined },
      q.page,
      q.pageSize,
    );
    const states = rows.map((r) => JSON.parse(r.state) as InstanceState);
    const names = await userNames(this.db, [...rows.map((r) => Number(r.initiator_id)), ...states.flatMap(pendingApprovers)]);
    return { data: rows.map((r, i) => this.rowView(r, names, states[i])), total };
  }

  /** GET /api/Workflow/Counts */
  counts(user: UserRow): Promise<Counts> {
    return countBoxes(this.db, user.id);
  }

  /** GET /api/Workflow/Instances/{id} */
  async detail(user: UserRow, idText: string): Promise<InstanceDetail> {
    const row = await this.visible(this.db, user, idText);
    return this.detailOf(this.db, user, row);
  }

  private async detailOf(db: Kysely<Database>, user: UserRow, row: WorkflowInstanceRow): Promise<InstanceDetail> {
    const snapshot = JSON.parse(row.definition) as DefinitionSnapshot;
    const state = JSON.parse(row.state) as InstanceState;
    const form = JSON.parse(row.form) as Record<string, string | number | null>;
    const [actions, files] = await Promise.all([actionsOf(db, row.id), filesOf(db, row.id)]);
    const ids = [
      Number(row.initiator_id),
      ...snapshot.ccUsers,
      ...state.steps.flatMap((s) => [...s.approvers, ...s.tasks.flatMap((t) => [t.userId, t.from ?? 0])]),
      ...actions.flatMap((a) => [Number(a.user_id ?? 0), Number(a.target_id ?? 0)]),
    ].filter((id) => id > 0);
    const names = await userNames(db, ids);
    const user0 = (id: number | null | undefined): WorkflowUser | null => (id ? { userId: wireId(id), name: names.get(Number(id)) ?? '' } : null);
    const processing = state.status === INSTANCE_STATUS.processing;
    const mine = pendingApprovers(state).includes(user.id);
    const log = toLog(actions);
    const initiator = row.initiator_id === user.id;
    const revokeRule = snapshot.revoke ?? 'untouched';
    const canRevoke = processing && initiator && revokeRule !== 'never' && (revokeRule === 'processing' || !touched(log));
    const viewFiles = processing || initiator || isFlowAdmin(user);
    const stepName = (i: number) => state.steps[Math.min(i, state.steps.length - 1)]?.name ?? '';
    return {
      ...this.rowView(row, names, state),
      fields: snapshot.fields.map((f) => ({ key: f.key, label: f.label, type: f.type, value: form[f.key] ?? null })),
      files: files.map((f) => ({
        fileId: wireId(f.item_id),
        versionId: wireId(f.version_id),
        name: f.name,
        extension: f.extension,
        size: Number(f.size),
        url: viewFiles ? `/api/Workflow/Instances/${row.id}/Files/${f.item_id}` : '',
      })),
      steps: state.steps.map((s, i) => ({
        name: s.name,
        mode: s.mode,
        fallback: !!s.fallback,
        state: !processing
          ? i < state.current || state.status === INSTANCE_STATUS.approved
            ? 'done'
            : 'closed'
          : i < state.current
            ? 'done'
            : i === state.current
              ? 'current'
              : 'waiting',
        tasks: (s.tasks.length || i <= state.current ? s.tasks : s.approvers.map((userId) => ({ userId, status: 'waiting' as const }))).map(
          (t) => ({
            userId: wireId(t.userId),
            name: names.get(t.userId) ?? '',
            status: t.status,
            from: user0('from' in t ? t.from : null),
          }),
        ),
      })),
      cc: snapshot.ccUsers.map((id) => ({ userId: wireId(id), name: names.get(id) ?? '' })),
      timeline: actions.map((a) => ({
        id: wireId(a.id),
        kind: a.kind,
        user: user0(a.user_id),
        step: a.step,
        stepName: stepName(a.step),
        comment: a.comment,
        target: user0(a.target_id),
        toStep: a.to_step,
        status: a.status,
        createdAt: this.formatTime(a.created_at),
      })),
      can: {
        approve: processing && mine,
        reject: processing && mine,
        returnTo: processing && mine ? Array.from({ length: state.current }, (_, i) => i) : [],
        transfer: processing && mine,
        addApprover: processing && mine,
        revoke: canRevoke,
        comment: true,
        remind: processing && initiator,
      },
    };
  }

  // ---- acting ----------------------------------------------------------------------------------

  private asAppError(err: unknown): unknown {
    if (err instanceof TransitionError) return new AppError(Math.floor(err.code / 100), err.code, err.message);
    return err;
  }

  private async actionOf(user: UserRow, name: ActionName, body: ActionBody): Promise<Action> {
    const comment = body.comment?.trim() ?? '';
    if ([...comment].length > COMMENT_MAX) throw badRequest(`意见不能超过 ${COMMENT_MAX} 个字符`);
    const other = async () => {
      const id = parseId(body.userId);
      if (id === null) throw badRequest('请选择人员');
      if (!(await activeUsers(this.db, [id])).length) throw badRequest('所选的人员不存在或已停用');
      return id;
    };
    switch (name) {
      case 'Approve':
        return { kind: 'approve', userId: user.id, comment };
      case 'Reject':
        if (!comment) throw badRequest('驳回时请填写意见');
        return { kind: 'reject', userId: user.id, comment };
      case 'Return':
        if (!comment) throw badRequest('退回时请填写意见');
        if (body.toStep === undefined) throw badRequest('请选择退回到的步骤');
        return { kind: 'return', userId: user.id, toStep: body.toStep, comment };
      case 'Transfer':
        return { kind: 'transfer', userId: user.id, to: await other(), comment };
      case 'AddApprover':
        return { kind: 'addApprover', userId: user.id, add: await other(), comment };
      case 'Revoke':
        return { kind: 'revoke', userId: user.id, comment };
      case 'Comment':
        return { kind: 'comment', userId: user.id, comment };
    }
  }

  /**
   * POST /api/Workflow/Instances/{id}/{action}: one transition under the instance's row lock,
   * written only over the version it was computed from; should another action have got there
   * first all the same, the state is read again and the action decided anew (so a second 或签
   * approval finds no task left).
   */
  async act(user: UserRow, idText: string, name: ActionName, body: ActionBody): Promise<InstanceDetail> {
    const action = await this.actionOf(user, name, body);
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const now = Date.now();
      const outcome = await this.db
        .transaction()
        .execute(async (trx) => {
          const lockId = parseId(idText);
          if (lockId !== null) await lockInstance(trx, lockId);
          const row = await this.visible(trx, user, idText);
          const snapshot = JSON.parse(row.definition) as DefinitionSnapshot;
          const log = toLog(await actionsOf(trx, row.id));
          const before = JSON.parse(row.state) as InstanceState;
          const { state, log: added } = applyAction(before, action, { initiatorId: Number(row.initiator_id), revoke: snapshot.revoke }, log);
          if (!(await saveState(trx, row.id, row.version, state, now))) return null;
          await appendActions(trx, row.id, added, now);
          // a step returned to asks its approvers afresh
          await setParticipants(trx, row.id, this.roles(state, [...log, ...added], snapshot), now, action.kind === 'return' ? pendingApprovers(state) : []);
          if (action.kind !== 'comment') {
            const who = { instanceId: row.id, title: row.title, initiatorId: Number(row.initiator_id), actorId: user.id };
            await recordChange(trx, { ...who, action: action.kind, before, after: state, cc: [] }, now);
          }
          return { row: (await findInstance(trx, row.id)) as WorkflowInstanceRow, ended: state.status !== INSTANCE_STATUS.processing };
        })
        .catch((err: unknown) => {
          throw this.asAppError(err);
        });
      if (!outcome) continue;
      this.changed();
      if (outcome.ended && outcome.row.source) await this.deliverEnd(outcome.row).catch(() => undefined);
      return this.detailOf(this.db, user, outcome.row);
    }
    throw new AppError(409, 40901, '该审批正在被其他人处理，请刷新后重试');
  }

  // ---- 催办 -------------------------------------------------------------------------------------

  /**
   * Reminds those of `candidates` not reminded within `everyMs` (the upsert on
   * workflow_reminders takes a person only where the last reminder is that old or none was
   * sent, so two reminders at once, manual or automatic, on any instance, never both go out);
   * the line in 审批记录 and the event `workflow.reminded` for those taken. Inside the
   * caller's transaction, under the instance's row lock.
   */
  private async remindIn(
    trx: Kysely<Database>,
    row: WorkflowInstanceRow,
    candidates: readonly number[],
    everyMs: number,
    how: { actorId: number; line: (names: string[]) => string; comment: string; auto?: { hours: number } },
    now: number,
  ): Promise<{ taken: number[]; names: Map<number, string> }> {
    const taken: number[] = [];
    for (const userId of candidates) {
      const r = await trx
        .insertInto('workflow_reminders')
        .values({ instance_id: row.id, user_id: userId, reminded_at: now })
        .onConflict((oc) => oc.columns(['instance_id', 'user_id']).doUpdateSet({ reminded_at: now }).where('workflow_reminders.reminded_at', '<=', now - everyMs))
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) taken.push(userId);
    }
    const names = await userNames(trx, candidates);
    if (!taken.length) return { taken, names };
    const step = (JSON.parse(row.state) as InstanceState).current;
    await appendActions(trx, row.id, [{ kind: 'comment', userId: how.actorId, step, comment: how.line(taken.map((id) => names.get(id) ?? '')) }], now);
    await recordEvent(
      trx,
      'workflow.reminded',
      { instanceId: row.id, title: row.title, initiatorId: Number(row.initiator_id), userIds: taken, comment: how.comment, ...(how.auto ? { auto: true, hours: how.auto.hours } : {}) },
      now,
    );
    return { taken, names };
  }

  /**
   * POST /api/Workflow/Instances/{id}/Remind: the initiator reminds the approvers the request
   * waits for, each at most once an hour; a line in its 审批记录 and a notice to each of them.
   * Answers who was reminded and who not yet again (and from when); none at all: 429.
   */
  async remind(user: UserRow, idText: string, comment: string): Promise<{ reminded: string[]; later: Array<{ name: string; at: string }> }> {
    const now = Date.now();
    const text = cleanText(comment, '催办说明', 200, false);
    const out = await this.db.transaction().execute(async (trx) => {
      const lockId = parseId(idText);
      if (lockId !== null) await lockInstance(trx, lockId);
      const row = await this.visible(trx, user, idText);
      if (Number(row.initiator_id) !== user.id) throw forbidden('只有发起人可以催办');
      if (row.status !== INSTANCE_STATUS.processing) throw new AppError(409, 40901, '审批已结束，无需催办');
      const waiting = pendingApprovers(JSON.parse(row.state) as InstanceState);
      if (!waiting.length) throw new AppError(409, 40901, '当前没有待处理的审批人');
      const { taken, names } = await this.remindIn(
        trx,
        row,
        waiting,
        REMIND_EVERY_MS,
        { actorId: user.id, comment: text, line: (reminded) => `催办：${reminded.join('、')}${text ? `。${text}` : ''}` },
        now,
      );
      const nameOf = (id: number) => names.get(id) ?? '';
      const last = await trx.selectFrom('workflow_reminders').select(['user_id', 'reminded_at']).where('instance_id', '=', row.id).where('user_id', 'in', waiting).execute();
      const later = last.filter((r) => !taken.includes(Number(r.user_id))).map((r) => ({ name: nameOf(Number(r.user_id)), at: Number(r.reminded_at) + REMIND_EVERY_MS }));
      return { reminded: taken.map(nameOf), later };
    });
    if (!out.reminded.length) {
      const first = Math.min(...out.later.map((l) => l.at));
      throw tooManyRequests(`一小时内已催办过，请于 ${this.formatTime(first).slice(11, 16)} 之后再催办`, (first - now) / 1000);
    }
    this.changed();
    return { reminded: out.reminded, later: out.later.map((l) => ({ name: l.name, at: this.formatTime(l.at) })) };
  }

  /**
   * 自动催办 of one instance at `now` (the job in auto-remind.ts): its approvers who have waited
   * the flow's N hours since the task became theirs and since their last reminder are reminded
   * as by 催办, by the system (审批记录: 系统自动催办：…; the notice says how long they waited).
   * Decided again under the instance's row lock; how many were reminded.
   */
  async autoRemind(instanceId: number, now: number): Promise<number> {
    const taken = await this.db.transaction().execute(async (trx) => {
      await lockInstance(trx, instanceId);
      const row = await findInstance(trx, instanceId);
      if (!row || row.status !== INSTANCE_STATUS.processing) return 0;
      const waiting = pendingApprovers(JSON.parse(row.state) as InstanceState);
      const due = (await dueAutoReminders(trx, now, { instanceId })).filter((d) => waiting.includes(Number(d.user_id)));
      if (!due.length) return 0;
      const hours = Number(due[0].hours);
      const { taken } = await this.remindIn(
        trx,
        row,
        due.map((d) => Number(d.user_id)),
        Math.max(hours * 3600_000, REMIND_EVERY_MS),
        { actorId: 0, comment: '', auto: { hours }, line: (names) => `系统自动催办：${names.join('、')}` },
        now,
      );
      return taken.length;
    });
    if (taken) this.changed();
    return taken;
  }

  // ---- 离职交接 ---------------------------------------------------------------------------------

  /** What a person holds in approvals: tasks waiting for them, and running flows they started. */
  async heldBy(userId: number): Promise<{ pendingTasks: number; runningFlows: number }> {
    const { todo } = await countBoxes(this.db, userId);
    const running = await this.db
      .selectFrom('workflow_instances')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('initiator_id', '=', userId)
      .where('status', '=', INSTANCE_STATUS.processing)
      .executeTakeFirstOrThrow();
    return { pendingTasks: todo, runningFlows: Number(running.n) };
  }

  /**
   * 离职交接, inside the caller's transaction: on every running instance, `to` takes over the
   * tasks of `from` (pending ones are transferred, as 转交 records them; waiting ones and the
   * approvers of later steps are replaced), and where `from` is the initiator, `to` becomes it
   * (我发起的, 撤销) with a comment in the record. The start and the earlier actions keep naming
   * `from`. `actorId` is the administrator, the author of the comments.
   */
  async handOver(
    trx: Kysely<Database>,
    h: { from: number; to: number; fromName: string; toName: string; actorId: number; now: number },
  ): Promise<{ pendingTasks: number; runningFlows: number }> {
    const rows = await trx
      .selectFrom('workflow_instances as i')
      .select('i.id')
      .where('i.status', '=', INSTANCE_STATUS.processing)
      .where((eb) =>
        eb.or([
          eb('i.initiator_id', '=', h.from),
          eb.exists(
            eb
              .selectFrom('workflow_participants as p')
              .select('p.instance_id')
              .whereRef('p.instance_id', '=', 'i.id')
              .where('p.user_id', '=', h.from)
              .where('p.role', 'in', ['todo', 'route']),
          ),
        ]),
      )
      .orderBy('i.id')
      .execute();
    let pendingTasks = 0;
    let runningFlows = 0;
    for (const { id } of rows) {
      await lockInstance(trx, id);
      const row = await findInstance(trx, id);
      if (!row || row.status !== INSTANCE_STATUS.processing) continue;
      const snapshot = JSON.parse(row.definition) as DefinitionSnapshot;
      const log = toLog(await actionsOf(trx, row.id));
      const step = (JSON.parse(row.state) as InstanceState).current;
      const moved = handOverTasks(JSON.parse(row.state) as InstanceState, h.from, h.to, `离职交接：转交给 ${h.toName}`);
      const added: LogEntry[] = [...moved.log];
      const at = Math.min(step, moved.state.steps.length - 1);
      if (moved.changed && !moved.transferred) {
        added.push({ kind: 'comment', userId: h.actorId, step: at, comment: `离职交接：${h.fromName} 在后续步骤中的审批改由 ${h.toName} 处理` });
      }
      const initiator = Number(row.initiator_id) === h.from;
      if (initiator) {
        added.push({ kind: 'comment', userId: h.actorId, step: at, comment: `离职交接：发起人由 ${h.fromName} 改为 ${h.toName}，由其继续跟进` });
      }
      if (!added.length) continue;
      // under the row lock the version read is the one stored
      if (moved.changed && !(await saveState(trx, row.id, row.version, moved.state, h.now))) {
        throw new AppError(409, 40901, '审批正在被其他人处理，请稍后重试');
      }
      if (initiator) {
        await trx.updateTable('workflow_instances').set({ initiator_id: h.to, updated_at: h.now }).where('id', '=', row.id).execute();
      }
      await appendActions(trx, row.id, added, h.now);
      await setParticipants(trx, row.id, this.roles(moved.state, [...log, ...added], snapshot), h.now);
      if (moved.transferred) {
        // the successor is asked in the leaver's place (a transfer by the administrator)
        const who = { instanceId: row.id, title: row.title, initiatorId: initiator ? h.to : Number(row.initiator_id), actorId: h.actorId };
        await recordChange(trx, { ...who, action: 'transfer', before: JSON.parse(row.state) as InstanceState, after: moved.state, cc: [] }, h.now);
        pendingTasks++;
      }
      if (initiator) runningFlows++;
    }
    return { pendingTasks, runningFlows };
  }

  /** GET /api/Workflow/Instances/{id}/Files/{fileId}: the attached version, for who may see it. */
  async fileContent(user: UserRow, idText: string, fileIdText: string): Promise<Content> {
    const row = await this.visible(this.db, user, idText);
    const state = JSON.parse(row.state) as InstanceState;
    const fileId = parseId(fileIdText);
    const file = (await filesOf(this.db, row.id)).find((f) => Number(f.item_id) === fileId);
    if (!file) throw notFound('附件不存在');
    const open = state.status === INSTANCE_STATUS.processing;
    if (!open && row.initiator_id !== user.id && !isFlowAdmin(user)) throw forbidden('审批已结束，附件不能再查看');
    const storage = file.blob_id === null ? null : await this.db.selectFrom('blobs').select('storage_key').where('id', '=', file.blob_id).executeTakeFirst();
    const size = Number(file.size);
    return {
      source: size > 0 && storage ? this.blobs.source(storage.storage_key) : null,
      size,
      etag: `"${file.md5 || 'd41d8cd98f00b204e9800998ecf8427e'}-${size}"`,
      lastModifiedMs: Number(row.created_at),
      fileName: file.name,
      contentType: contentTypeOf(file.extension),
      inline: true,
    };
  }

  // ---- ends ------------------------------------------------------------------------------------

  private readonly changeListeners: Array<() => void> = [];

  /** `listener` runs after every committed start or action (the notice dispatcher is nudged). */
  afterChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  private changed(): void {
    for (const l of this.changeListeners) l();
  }

  /** A module (the ferry) takes the end of the instances it started with `source`. */
  onEnd(source: string, handler: EndHandler): void {
    this.handlers.set(source, handler);
  }

  private async deliverEnd(row: WorkflowInstanceRow): Promise<boolean> {
    const handler = this.handlers.get(row.source);
    if (!handler || row.end_handled_at !== null) return false;
    await handler({
      instanceId: Number(row.id),
      source: row.source,
      sourceId: row.source_id,
      status: row.status as InstanceStatus,
      initiatorId: Number(row.initiator_id),
      finishedAt: Number(row.finished_at ?? row.updated_at),
    });
    await markEndHandled(this.db, row.id, Date.now());
    return true;
  }

  /** Hands every end not yet taken to its module (after a crash, or a handler that failed). */
  async sweepEnds(onError: (err: unknown, instanceId: number) => void = () => undefined): Promise<number> {
    let delivered = 0;
    // only modules that take ends are asked about; with none registered this reads nothing
    if (!this.handlers.size) return 0;
    for (const row of await unhandledEnds(this.db, [...this.handlers.keys()], 500)) {
      try {
        if (await this.deliverEnd(row)) delivered++;
      } catch (err) {
        onError(err, Number(row.id));
      }
    }
    return delivered;
  }
}
