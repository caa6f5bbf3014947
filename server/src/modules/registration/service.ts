// Registration in 云文档: a 6-digit SMS code proves the phone (codes expire after 10 minutes,
// at most 5 tries each; one send per phone a minute and 5 an hour, 20 an hour per address),
// then an application waits for an administrator, who approves it (the account is made then,
// with the password the applicant chose) or rejects it with a reason.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, RegistrationStatus, UserRow } from '../../db/types';
import { badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import type { Credentials } from '../auth/credentials';
import { findUserByKey, userNameKey } from '../users/repository';
import { cleanNickName, cleanUserName, type UsersService } from '../users/service';
import { recordEvent } from '../notices/events';
import type { SmsSender } from './sms';
import type { RegisterBody, Registration } from './schemas';

const PHONE_RE = /^1[3-9]\d{9}$/;
const CODE_TTL_MS = 10 * 60 * 1000;
const RESEND_MS = 60 * 1000;
const HOUR_MS = 3600 * 1000;
const PER_PHONE_HOURLY = 5;
const PER_ADDRESS_HOURLY = 20;
const MAX_CODE_ATTEMPTS = 5;

const codeHash = (phone: string, code: string) => crypto.createHash('sha256').update(`${phone}:${code}`).digest('hex');

export function cleanPhone(raw: string): string {
  const phone = raw.replace(/[\s-]/g, '').replace(/^\+?86/, '');
  if (!PHONE_RE.test(phone)) throw badRequest('请输入正确的 11 位手机号');
  return phone;
}

export class RegistrationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly credentials: Credentials,
    private readonly sms: SmsSender,
    private readonly formatTime: TimeFormatter,
  ) {}

  /** Sends a new code to the phone, within the limits. */
  async sendCode(rawPhone: string, ip: string): Promise<{ resendAfter: number; expiresIn: number }> {
    const phone = cleanPhone(rawPhone);
    const now = Date.now();
    const recent = await this.db
      .selectFrom('verify_codes')
      .select('created_at')
      .where('phone', '=', phone)
      .where('created_at', '>', now - HOUR_MS)
      .orderBy('created_at', 'desc')
      .execute();
    const last = recent[0] ? Number(recent[0].created_at) : null;
    if (last !== null && now - last < RESEND_MS) {
      const wait = Math.ceil((last + RESEND_MS - now) / 1000);
      throw tooManyRequests(`验证码已发送，请 ${wait} 秒后再试`, wait);
    }
    if (recent.length >= PER_PHONE_HOURLY) {
      const oldest = Number(recent[recent.length - 1].created_at);
      throw tooManyRequests('该手机号获取验证码过于频繁，请 1 小时后再试', (oldest + HOUR_MS - now) / 1000);
    }
    const byAddress = await this.db
      .selectFrom('verify_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', ip)
      .where('created_at', '>', now - HOUR_MS)
      .executeTakeFirstOrThrow();
    if (Number(byAddress.n) >= PER_ADDRESS_HOURLY) throw tooManyRequests('获取验证码过于频繁，请稍后再试', HOUR_MS / 1000);

    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    await this.db
      .insertInto('verify_codes')
      .values({ phone, ip: ip.slice(0, 64), code_hash: codeHash(phone, code), attempts: 0, created_at: now, expires_at: now + CODE_TTL_MS, used_at: null })
      .execute();
    await this.db.deleteFrom('verify_codes').where('created_at', '<', now - 24 * HOUR_MS).execute();
    await this.sms.send(phone, `【云文档】您的注册验证码是 ${code}，10 分钟内有效。如非本人操作，请忽略本短信。`);
    return { resendAfter: RESEND_MS / 1000, expiresIn: CODE_TTL_MS / 1000 };
  }

  /** Checks the phone's latest code (once); a wrong one counts, the fifth ends it. */
  private async useCode(phone: string, code: string, now: number): Promise<void> {
    const latest = await this.db
      .selectFrom('verify_codes')
      .selectAll()
      .where('phone', '=', phone)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!latest || latest.used_at !== null || Number(latest.expires_at) <= now || latest.attempts >= MAX_CODE_ATTEMPTS) {
      throw badRequest('验证码已失效，请重新获取');
    }
    if (latest.code_hash !== codeHash(phone, code.trim())) {
      await this.db.updateTable('verify_codes').set({ attempts: latest.attempts + 1 }).where('id', '=', latest.id).execute();
      throw badRequest(latest.attempts + 1 >= MAX_CODE_ATTEMPTS ? '验证码错误次数过多，请重新获取' : '验证码错误');
    }
    const res = await this.db.updateTable('verify_codes').set({ used_at: now }).where('id', '=', latest.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw badRequest('验证码已失效，请重新获取');
  }

  /** POST /api/User/Register: an application; no account exists until an administrator approves it. */
  async register(body: RegisterBody, ip: string): Promise<Registration> {
    const now = Date.now();
    const phone = cleanPhone(body.phone);
    const userName = cleanUserName(body.userName);
    const nickName = cleanNickName(body.nickName, '');
    if (!nickName) throw badRequest('请输入姓名');
    const key = userNameKey(userName);
    if (await this.nameTaken(key)) throw conflict('该用户名已被使用');
    const passwordHash = await this.credentials.newHash(body.password);
    await this.useCode(phone, body.code, now);
    const pending = await this.db.selectFrom('registrations').select('id').where('phone', '=', phone).where('status', '=', 'pending').executeTakeFirst();
    if (pending) throw conflict('该手机号已有一份申请在等待审批');
    const row = await this.db.transaction().execute(async (trx) => {
      const filed = await trx
        .insertInto('registrations')
        .values({
          phone,
          user_name: userName,
          user_name_key: key,
          nick_name: nickName,
          password_hash: passwordHash,
          department: (body.department ?? '').trim().slice(0, 128),
          reason: (body.reason ?? '').trim().slice(0, 500),
          status: 'pending',
          decided_by: null,
          decided_at: null,
          decision_note: '',
          user_id: null,
          ip: ip.slice(0, 64),
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // the system administrators are asked (registration.waiting)
      await recordEvent(trx, 'registration.filed', { registrationId: Number(filed.id) }, now);
      return filed;
    });
    return this.toRegistration(row);
  }

  /** A user name is taken by an account or by an application still waiting. */
  private async nameTaken(key: string): Promise<boolean> {
    if (await findUserByKey(this.db, key)) return true;
    return Boolean(await this.db.selectFrom('registrations').select('id').where('user_name_key', '=', key).where('status', '=', 'pending').executeTakeFirst());
  }

  async list(query: { status?: RegistrationStatus; page?: number; pageSize?: number }): Promise<{ data: Registration[]; total: number }> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 50;
    let q = this.db.selectFrom('registrations');
    if (query.status) q = q.where('status', '=', query.status);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset((page - 1) * pageSize).limit(pageSize).execute();
    return { data: rows.map((r) => this.toRegistration(r)), total };
  }

  private async pending(idText: string) {
    const id = parseId(idText);
    const row = id === null ? undefined : await this.db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('申请不存在');
    if (row.status !== 'pending') throw conflict('该申请已处理');
    return row;
  }

  /** Makes the account with the applicant's own password, then marks the application approved. */
  async approve(admin: UserRow, idText: string, body: { deptId?: string | null }): Promise<Registration> {
    const row = await this.pending(idText);
    let deptId: number | null = null;
    if (body.deptId !== undefined && body.deptId !== null) {
      deptId = parseId(body.deptId);
      if (deptId === null) throw badRequest('所选部门不存在');
    }
    const user = await this.users.createUser({
      userName: row.user_name,
      nickName: row.nick_name,
      password: '',
      passwordHash: row.password_hash,
      deptId,
      mobile: row.phone,
    });
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('registrations')
        .set({ status: 'approved', decided_by: admin.id, decided_at: now, user_id: user.id, password_hash: '' })
        .where('id', '=', row.id)
        .execute();
      await recordEvent(trx, 'registration.decided', { registrationId: Number(row.id), adminId: admin.id, status: 'approved' }, now);
    });
    return this.toRegistration({ ...row, status: 'approved', decided_at: now, user_id: user.id });
  }

  async reject(admin: UserRow, idText: string, reason: string): Promise<Registration> {
    const row = await this.pending(idText);
    const note = reason.trim();
    if (!note) throw badRequest('请填写驳回理由');
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('registrations')
        .set({ status: 'rejected', decided_by: admin.id, decided_at: now, decision_note: note.slice(0, 500), password_hash: '' })
        .where('id', '=', row.id)
        .execute();
      await recordEvent(trx, 'registration.decided', { registrationId: Number(row.id), adminId: admin.id, status: 'rejected' }, now);
    });
    return this.toRegistration({ ...row, status: 'rejected', decided_at: now, decision_note: note.slice(0, 500) });
  }

  /** The log sender's messages, newest first (administrators). */
  async smsMessages(phone?: string): Promise<{ phone: string; text: string; createdAt: string }[]> {
    let q = this.db.selectFrom('sms_outbox').selectAll();
    if (phone) q = q.where('phone', '=', cleanPhone(phone));
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200).execute();
    return rows.map((r) => ({ phone: r.phone, text: r.text, createdAt: this.formatTime(Number(r.created_at)) }));
  }

  private toRegistration(r: {
    id: number;
    phone: string;
    user_name: string;
    nick_name: string;
    department: string;
    reason: string;
    status: RegistrationStatus;
    created_at: number;
    decided_at: number | null;
    decision_note: string;
    user_id: number | null;
  }): Registration {
    return {
      id: String(r.id),
      phone: r.phone,
      userName: r.user_name,
      nickName: r.nick_name,
      department: r.department,
      reason: r.reason,
      status: r.status,
      createdAt: this.formatTime(Number(r.created_at)),
      decidedAt: r.decided_at === null ? null : this.formatTime(Number(r.decided_at)),
      decisionNote: r.decision_note,
      userId: r.user_id === null ? null : String(r.user_id),
    };
  }
}
