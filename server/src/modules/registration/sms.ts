// Text messages of 云文档 (verification codes). The sender is pluggable; the default, the log
// sender, keeps each message in the table sms_outbox, where administrators read the codes
// (GET /api/Admin/Sms) until a real gateway is plugged in.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export interface SmsSender {
  /** a short name for the logs and the docs */
  readonly name: string;
  send(phone: string, text: string): Promise<void>;
}

export class LogSmsSender implements SmsSender {
  readonly name = 'log';

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async send(phone: string, text: string): Promise<void> {
    const now = Date.now();
    await this.db.insertInto('sms_outbox').values({ phone, text, created_at: now }).execute();
    // a week of messages is plenty for an administrator reading codes
    await this.db.deleteFrom('sms_outbox').where('created_at', '<', now - 7 * 24 * 3600 * 1000).execute();
    this.log(`短信（未接入短信网关，仅记录）：${phone.slice(0, 3)}****${phone.slice(-4)}：${text}`);
  }
}
