// 自动催办: every minute, on the one instance that holds the lease `workflow-auto-remind`, the
// approvers of running requests whose flow reminds after N hours (set on the definition, 0 off)
// and who have waited that long, since the task became theirs and since their last reminder,
// are reminded as by 催办 (workflow/service.ts autoRemind). All state is in the database
// (workflow_participants.todo_since, workflow_reminders), so any instance may take over; a
// person is reminded at most once per N hours, and never twice for one wait, however many run.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { JobLeases } from '../../lib/job-lease';
import { dueAutoReminders } from './repository';
import type { WorkflowService } from './service';

const LEASE = 'workflow-auto-remind';
/** Rounds every minute; the holder renews the lease each round, another takes over after 90 s. */
const INTERVAL_MS = 60_000;
const LEASE_MS = 90_000;
/** Instances reminded per round, at most (the rest in the next round). */
const BATCH = 500;

export class AutoReminder {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflow: WorkflowService,
    private readonly leases: JobLeases,
    /** told of an instance that failed (to log it); it is tried again next round */
    public onError: (err: unknown, instanceId: number) => void = () => undefined,
  ) {}

  /** Reminds whoever is due at `now`, once; how many people were reminded. */
  async runOnce(now = Date.now()): Promise<number> {
    const due = await dueAutoReminders(this.db, now, { limit: BATCH * 20 });
    const instances = [...new Set(due.map((d) => Number(d.instance_id)))].slice(0, BATCH);
    let reminded = 0;
    for (const id of instances) {
      try {
        reminded += await this.workflow.autoRemind(id, now);
      } catch (err) {
        this.onError(err, id);
      }
    }
    return reminded;
  }

  /** One round, on the lease holder only. */
  private async round(): Promise<void> {
    if (!(await this.leases.take(LEASE, LEASE_MS))) return;
    await this.runOnce();
  }

  /** Rounds every `intervalMs` until stop(). */
  start(intervalMs = INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.round()
        .catch((err: unknown) => this.onError(err, 0))
        .finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
