// 邮件 as a channel of the notice sender (sender.ts): the SMTP server of 系统管理 › 通知, one mail
// per urgent notice, one per digest; a reply the server would give again (5yz) fails at once, a
// server that cannot be reached or drops the connection ends the round.
import type { TimeFormatter } from '../../lib/time';
import type { MailSettingsService } from './mail-settings';
import { NO_ADDRESS } from './recipients';
import { DeliveryError, type Addressed, type ChannelSession, type DeliveryChannel, type Outcome } from './sender';
import { explainSmtpError, isPermanent, smtpTransport, type MailTransport, type OutgoingMail } from './smtp';
import { digestMail, singleMail } from './templates';

export const MAIL_OFF = '邮件通知已停用';

export class MailChannel implements DeliveryChannel {
  readonly key = 'mail' as const;
  readonly lease = 'notice-mail';
  readonly noAddress = NO_ADDRESS.mail;
  readonly batchSize = 1;
  readonly confirms = false;

  constructor(
    private readonly mail: MailSettingsService,
    private readonly formatTime: TimeFormatter,
  ) {}

  async open(): Promise<ChannelSession | { off: string }> {
    const { settings, password, context } = await this.mail.current();
    if (!settings.enabled || !settings.host || !settings.from) return { off: MAIL_OFF };
    let transport: MailTransport | null = null;
    const when = (r: Addressed) => ({ ...r, createdAt: this.formatTime(r.created_at) });
    const deliver = async (rows: Addressed[], mail: OutgoingMail): Promise<Exclude<Outcome, { defer: true }>> => {
      try {
        transport ??= smtpTransport(settings, password, context.product);
        await transport.send(mail);
        return { rows, ok: true };
      } catch (err) {
        const permanent = isPermanent(err);
        // a broken connection is not used again; a server that cannot be reached is not tried
        // again for every row of the round (each would wait for its own timeout)
        transport?.close();
        transport = null;
        const raw = err instanceof Error ? err.message : String(err);
        return { rows, ok: false, error: new DeliveryError(explainSmtpError(err, settings), raw, permanent, !permanent) };
      }
    };
    return {
      async addresses(rows) {
        return new Map(rows.map((r) => [r.user_id, r.email]));
      },
      async send(rows, mode) {
        if (mode === 'digest') return [await deliver([...rows], digestMail(context, rows[0].address, rows.map(when)))];
        const out: Outcome[] = [];
        for (const r of rows) {
          const o = await deliver([r], singleMail(context, r.address, when(r)));
          out.push(o);
          if (!o.ok && o.error.broken) break;
        }
        return out;
      },
      close() {
        transport?.close();
      },
    };
  }
}
