// The dispatcher's handlers of the kinds beyond approvals and shares (dispatcher.ts HANDLERS):
// uploads through an external link, the ferry, registrations, quota, password expiry, TOTP
// reset and 系统公告. Each tells only the people the event concerns, still active, and only
// about what they may see; each runs inside the dispatcher's transaction of its event.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { formatBytes } from '../../lib/bytes';
import { announcementRecipients, type AnnouncementScope } from '../announcements/repository';
import { departmentChain, parseOverride, resolvePolicy } from '../organizations/inheritance';
import { readSetting } from '../settings/repository';
import type { FeaturePolicy } from '../settings/schemas';
import { DEFAULT_FEATURE_POLICY } from '../settings/service';
import { userNames } from '../workflow/approvers';
import type { Handler } from './dispatcher';
import { insertNotices, resolveNotices, type NewNotice } from './repository';

/** Uploads through one external link within this time of the first make one notice (link.uploaded). */
export const LINK_UPLOAD_GROUP_MS = 60_000;

/** Rows per insert when an event tells many people (a 公告 to everyone). */
const INSERT_BATCH = 500;

/** Where 系统管理 lists the registrations. */
export const REGISTRATIONS_LINK = '/admin?tab=registrations';
/** Where a person changes the password and binds TOTP (个人设置). */
export const ACCOUNT_LINK = '/account';
export const PERSONAL_LINK = '/file/personal';

async function insertInBatches(trx: Kysely<Database>, rows: readonly NewNotice[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await insertNotices(trx, rows.slice(i, i + INSERT_BATCH));
}

async function isActive(db: Kysely<Database>, userId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('disabled').where('id', '=', userId).executeTakeFirst();
  return !!row && Number(row.disabled) === 0;
}

/**
 * The route that shows an item, as shared/src/routes.ts resolveFileJump makes it: a file opens
 * its folder with the file in focus, a folder opens itself (first id-path segment: 1 enterprise).
 */
export function itemLink(idPath: string, type: string): string {
  const segments = idPath.split('/').filter(Boolean);
  const base = segments[0] === '1' ? '/file/public' : '/file/personal';
  if (type !== 'folder') {
    const folder = segments.slice(0, -1);
    const at = folder.length >= 2 ? `${base}/${folder.join('/')}` : base;
    return `${at}?focus=${encodeURIComponent(segments[segments.length - 1] ?? '')}`;
  }
  return `${base}/${segments.join('/')}`;
}

/** “甲”、“乙”、“丙”等 5 个文件 */
function quotedNames(names: readonly string[], total: number, unit: string): string {
  const shown = names.slice(0, 3).map((n) => `“${n}”`).join('、');
  return total > 3 ? `${shown}等 ${total} 个${unit}` : shown;
}

/**
 * Files uploaded through an external link: the event is due a minute after the upload, and
 * takes with it every upload through the same link still waiting then (they are marked
 * dispatched here, in the same transaction), so that a batch makes one notice to the owner.
 */
const linkUploaded: Handler<'link.uploaded'> = async (trx, event, p, now) => {
  const waiting = await trx
    .selectFrom('events')
    .select(['id', 'payload'])
    .where('kind', '=', 'link.uploaded')
    .where('dispatched_at', 'is', null)
    .where('id', '<>', event.id)
    .orderBy('id')
    .limit(1000)
    .execute();
  const same: Array<{ id: number; p: typeof p }> = [];
  for (const w of waiting) {
    try {
      const other = JSON.parse(w.payload) as typeof p;
      if (other.shareId === p.shareId && other.ownerId === p.ownerId) same.push({ id: Number(w.id), p: other });
    } catch {
      // an unreadable payload is its own event's failure
    }
  }
  if (same.length) {
    await trx
      .updateTable('events')
      .set({ dispatched_at: now, last_error: '' })
      .where('id', 'in', same.map((s) => s.id))
      .where('dispatched_at', 'is', null)
      .execute();
  }
  if (!(await isActive(trx, p.ownerId))) return;
  const uploads = [p, ...same.map((s) => s.p)];
  // the same file again (a new version through the link) counts once
  const ids = [...new Set(uploads.map((u) => Number(u.itemId)))];
  const rows = await trx.selectFrom('items').select(['id', 'name', 'type', 'id_path', 'parent_id', 'deleted_at']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const names = ids.map((id) => byId.get(id)?.name ?? uploads.find((u) => Number(u.itemId) === id)?.name ?? '');
  const live = ids.map((id) => byId.get(id)).filter((r): r is NonNullable<typeof r> => !!r && r.deleted_at === null);
  let where = '';
  if (live.length && live.every((r) => r.parent_id === live[0].parent_id) && live[0].parent_id !== null) {
    const folder = await trx.selectFrom('items').select(['name', 'parent_id']).where('id', '=', Number(live[0].parent_id)).executeTakeFirst();
    if (folder && folder.parent_id !== null) where = `，保存在“${folder.name}”中`;
  }
  await insertNotices(trx, [
    {
      user_id: p.ownerId,
      kind: 'link.uploaded',
      title: ids.length === 1 ? `外链收到上传：“${names[0]}”` : `外链收到 ${ids.length} 个上传的文件`,
      body: `有人通过你的外链（上传和编辑）上传了 ${quotedNames(names, ids.length, '文件')}${where}`,
      object_type: 'share',
      object_id: p.shareId,
      link: live.length ? itemLink(live[0].id_path, live[0].type) : '',
      event_id: event.id,
      created_at: now,
    },
  ]);
};

/** The sender of a ferry task now (离职交接 may have changed it), when still active. */
async function ferrySender(trx: Kysely<Database>, taskId: number): Promise<number | null> {
  const row = await trx.selectFrom('ferry_tasks').select('requester_id').where('id', '=', taskId).executeTakeFirst();
  if (!row) return null;
  const userId = Number(row.requester_id);
  return (await isActive(trx, userId)) ? userId : null;
}

function ferryNotice(event: { id: number }, now: number, userId: number, taskId: number, link: string, kind: string, title: string, body: string): NewNotice {
  return { user_id: userId, kind, title, body, object_type: 'ferry', object_id: String(taskId), link, event_id: event.id, created_at: now };
}

const ferryBlocked: Handler<'ferry.blocked'> = async (trx, event, p, now) => {
  const userId = await ferrySender(trx, p.taskId);
  if (userId === null) return;
  await insertNotices(trx, [ferryNotice(event, now, userId, p.taskId, p.link, 'ferry.blocked', `摆渡已拦截：${p.number}`, `发往${p.toZone}的文件未通过检查，未进入审批：${p.reason}`)]);
};

const ferryDelivered: Handler<'ferry.delivered'> = async (trx, event, p, now) => {
  const userId = await ferrySender(trx, p.taskId);
  if (userId === null) return;
  await insertNotices(trx, [ferryNotice(event, now, userId, p.taskId, p.link, 'ferry.delivered', `摆渡已送达：${p.number}`, `文件已送达${p.toZone}，接收方校验一致，等待接收人下载`)]);
};

const ferryDownloaded: Handler<'ferry.downloaded'> = async (trx, event, p, now) => {
  const userId = await ferrySender(trx, p.taskId);
  if (userId === null) return;
  const who = p.byName ? `${p.byName} ` : '接收人';
  await insertNotices(trx, [ferryNotice(event, now, userId, p.taskId, p.link, 'ferry.downloaded', `摆渡文件已下载：${p.number}`, `${who}已在${p.toZone}下载了你摆渡的文件`)]);
};

/** A package arrived in this zone: the people it was given to here (ferry_inbox_users), active. */
const ferryArrived: Handler<'ferry.arrived'> = async (trx, event, p, now) => {
  const row = await trx.selectFrom('ferry_inbox').selectAll().where('id', '=', p.inboxId).executeTakeFirst();
  if (!row || (row.status !== 'delivered' && row.status !== 'downloaded')) return;
  const rows = await trx
    .selectFrom('ferry_inbox_users')
    .innerJoin('users', 'users.id', 'ferry_inbox_users.user_id')
    .select(['users.id', 'users.dept_id', 'users.feature_policy'])
    .where('ferry_inbox_users.inbox_id', '=', p.inboxId)
    .where('users.disabled', '=', 0)
    .execute();
  // in full mode the received files show in 交换空间, open only to those whose policy has it
  const holders = p.policyChecked ? await withFerrySpaces(trx, rows) : rows;
  const files = await trx.selectFrom('ferry_inbox_files').select('name').where('inbox_id', '=', p.inboxId).orderBy('idx').execute();
  const from = row.sender_name ? `${row.sender_name}（${row.from_zone}）` : row.from_zone;
  const body = `${from}发来 ${quotedNames(files.map((f) => f.name), files.length, '文件')}${row.reason ? `。摆渡原因：${row.reason}` : ''}`;
  await insertNotices(
    trx,
    holders.map((h) => ({
      user_id: Number(h.id),
      kind: 'ferry.arrived',
      title: `收到摆渡文件：${row.task_number || `来自${row.from_zone}`}`,
      body,
      object_type: 'ferryInbox',
      object_id: String(p.inboxId),
      link: p.link,
      event_id: event.id,
      created_at: now,
    })),
  );
};

/** The people among `rows` whose feature policy opens 交换空间 (read in the transaction: SQLite has one connection). */
async function withFerrySpaces<T extends { dept_id: number | null; feature_policy: string | null }>(trx: Kysely<Database>, rows: readonly T[]): Promise<T[]> {
  const stored = await readSetting(trx, 'featurePolicy');
  const global = { ...DEFAULT_FEATURE_POLICY, ...(stored && typeof stored === 'object' ? (stored as Partial<FeaturePolicy>) : {}) };
  const out: T[] = [];
  for (const r of rows) {
    const chain = await departmentChain(trx, r.dept_id === null ? null : Number(r.dept_id));
    if (resolvePolicy(global, chain, parseOverride(r.feature_policy ?? null)).effective.ferrySpaces) out.push(r);
  }
  return out;
}

const registrationObject = (id: number) => ({ type: 'registration', id: String(id) });

/** A registration waits: every active system administrator is asked (unless it was decided meanwhile). */
const registrationFiled: Handler<'registration.filed'> = async (trx, event, p, now) => {
  const row = await trx.selectFrom('registrations').selectAll().where('id', '=', p.registrationId).executeTakeFirst();
  if (!row || row.status !== 'pending') return;
  const admins = await trx.selectFrom('users').select('id').where('is_admin', '=', 1).where('disabled', '=', 0).execute();
  const details = [row.department ? `部门：${row.department}` : '', row.reason ? `申请理由：${row.reason}` : ''].filter(Boolean).join('；');
  await insertNotices(
    trx,
    admins.map((a) => ({
      user_id: Number(a.id),
      kind: 'registration.waiting',
      title: `注册申请待审批：${row.nick_name}（${row.user_name}）`,
      body: `${details ? `${details}。` : ''}请在系统管理的“注册申请”中批准或驳回`,
      object_type: 'registration',
      object_id: String(row.id),
      link: REGISTRATIONS_LINK,
      event_id: event.id,
      created_at: now,
    })),
  );
};

const registrationDecided: Handler<'registration.decided'> = async (trx, _event, p, now) => {
  const admin = (await userNames(trx, [p.adminId])).get(p.adminId) ?? '';
  const done = p.status === 'approved' ? '批准' : '驳回';
  await resolveNotices(trx, registrationObject(p.registrationId), ['registration.waiting'], [p.adminId], `已${done}`, now);
  await resolveNotices(trx, registrationObject(p.registrationId), ['registration.waiting'], null, admin ? `已由${admin}${done}` : '已处理', now);
};

const quotaCrossed: Handler<'quota.crossed'> = async (trx, event, p, now) => {
  if (!(await isActive(trx, p.userId))) return;
  const percent = Math.floor((p.used * 100) / Math.max(1, p.quota));
  await insertNotices(trx, [
    {
      user_id: p.userId,
      kind: 'quota.warning',
      title: `个人空间已使用 ${percent}%`,
      body: `已用 ${formatBytes(p.used)}，共 ${formatBytes(p.quota)}。用满后将不能再上传，请删除不需要的文件并清理回收站（回收站中的文件也占用空间）`,
      object_type: 'quota',
      object_id: String(p.userId),
      link: PERSONAL_LINK,
      event_id: event.id,
      created_at: now,
    },
  ]);
};

const passwordExpiring: Handler<'password.expiring'> = async (trx, event, p, now) => {
  const user = await trx.selectFrom('users').select(['disabled', 'password_changed_at', 'created_at']).where('id', '=', p.userId).executeTakeFirst();
  // gone, disabled, or the password was changed since: nothing to say
  if (!user || Number(user.disabled) !== 0 || (Number(user.password_changed_at) || Number(user.created_at)) !== p.since) return;
  await insertNotices(trx, [
    {
      user_id: p.userId,
      kind: 'password.expiring',
      title: `密码将于 ${p.expiresText} 过期`,
      body: '请在此之前到个人设置中修改密码；过期后登录时须先设置新密码',
      object_type: 'password',
      object_id: String(p.userId),
      link: ACCOUNT_LINK,
      event_id: event.id,
      created_at: now,
    },
  ]);
};

const totpReset: Handler<'totp.reset'> = async (trx, event, p, now) => {
  if (!(await isActive(trx, p.userId))) return;
  const admin = (await userNames(trx, [p.adminId])).get(p.adminId) ?? '';
  await insertNotices(trx, [
    {
      user_id: p.userId,
      kind: 'totp.reset',
      title: '你的动态口令已被重置',
      body: `${admin ? `管理员 ${admin} ` : '管理员'}重置了你的动态口令（TOTP），原来绑定的口令不再有效，需要时请在个人设置中重新绑定。如非你本人申请，请尽快联系管理员`,
      object_type: 'totp',
      object_id: String(p.userId),
      link: ACCOUNT_LINK,
      event_id: event.id,
      created_at: now,
    },
  ]);
};

/** A 公告: one notice per active person it reaches, 500 rows an insert; the count and time recorded. */
const announcementSent: Handler<'announcement.sent'> = async (trx, event, p, now) => {
  const row = await trx.selectFrom('announcements').selectAll().where('id', '=', p.announcementId).executeTakeFirst();
  if (!row || row.sent_at !== null) return;
  const departmentIds = (JSON.parse(row.department_ids) as Array<string | number>).map(Number);
  const recipients = await announcementRecipients(trx, row.scope as AnnouncementScope, departmentIds);
  const id = String(row.id);
  await insertInBatches(
    trx,
    recipients.map((userId) => ({
      user_id: userId,
      kind: 'announcement',
      title: `系统公告：${row.title}`,
      body: row.body,
      object_type: 'announcement',
      object_id: id,
      link: '',
      event_id: event.id,
      created_at: now,
    })),
  );
  await trx.updateTable('announcements').set({ recipients: recipients.length, sent_at: now }).where('id', '=', row.id).execute();
};

type KindEvent =
  | 'link.uploaded'
  | 'ferry.blocked'
  | 'ferry.delivered'
  | 'ferry.downloaded'
  | 'ferry.arrived'
  | 'registration.filed'
  | 'registration.decided'
  | 'quota.crossed'
  | 'password.expiring'
  | 'totp.reset'
  | 'announcement.sent';

export const KIND_HANDLERS: { [K in KindEvent]: Handler<K> } = {
  'link.uploaded': linkUploaded,
  'ferry.blocked': ferryBlocked,
  'ferry.delivered': ferryDelivered,
  'ferry.downloaded': ferryDownloaded,
  'ferry.arrived': ferryArrived,
  'registration.filed': registrationFiled,
  'registration.decided': registrationDecided,
  'quota.crossed': quotaCrossed,
  'password.expiring': passwordExpiring,
  'totp.reset': totpReset,
  'announcement.sent': announcementSent,
};
