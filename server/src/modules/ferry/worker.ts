// The ferry's background work in 云文档, one pass every FERRY_POLL_MS: import the spool, resume
// interrupted scans, send approved tasks, write receipts, push what waits for HTTPS peers, expire
// received and sent files, and prune audit records past the retention. Every step is idempotent
// and leased in the database, so several API instances may run it side by side.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { pruneAudit } from './audit';
import type { FerryInbox } from './inbox';
import type { FerryService } from './service';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export class FerryWorker {
  private running: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ferry: FerryService,
    private readonly inbox: FerryInbox,
    private readonly onError: (err: unknown, step: string) => void,
  ) {}

  /** One pass (a pass already running is joined, not doubled). */
  tick(now: number = Date.now()): Promise<void> {
    this.running ??= this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async step(name: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.onError(err, name);
    }
  }

  private async pass(now: number): Promise<void> {
    await this.step('import', () => this.inbox.importSpools());
    await this.step('scan', () => this.ferry.resumeScans());
    await this.step('send', () => this.ferry.sendDue());
    await this.step('receipts', () => this.inbox.sendReceipts());
    for (const peer of this.ferry.httpsPeers()) await this.step(`push ${peer.zone}`, () => this.ferry.pushOutbox(peer));
    await this.step('expire', async () => {
      await this.inbox.expire(now);
      await this.ferry.expireSent(now);
    });
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.step('prune', async () => {
        const { auditRetentionDays } = await this.ferry.settings.get();
        await pruneAudit(this.db, now - auditRetentionDays * DAY_MS, auditRetentionDays);
      });
    }
  }
}
