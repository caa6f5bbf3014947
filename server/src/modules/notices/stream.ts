// Notices pushed to open pages (server-sent events, /api/Notices/Stream): each instance looks
// once a second for notices newer than the last it saw, whoever made them (the dispatcher may
// run on another instance), and tells the pages open on it of their people's new notices and
// unread count. One query a second per instance, whatever the number of open pages; nothing
// when no page is open.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export type StreamMessage = { event: 'unread'; data: { unread: number } } | { event: 'notice'; data: { unread: number; notice: unknown } } | { event: 'close' };
type Listener = (m: StreamMessage) => void;

export interface StreamSource {
  unreadOf(userId: number): Promise<number>;
  /** the notice as the list gives it */
  noticeOf(id: number): Promise<unknown>;
}

export class NoticeStreams {
  private readonly listeners = new Map<number, Set<Listener>>();
  private lastId: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: StreamSource,
    private readonly pollMs = 1000,
  ) {}

  /**
   * Listens for the person's notices from now on (the last notice is known before it returns, so
   * none made afterwards is missed); returns how to stop.
   */
  async subscribe(userId: number, listener: Listener): Promise<() => void> {
    if (this.lastId === null) {
      const top = await this.db.selectFrom('notices').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
      this.lastId ??= Number(top?.id ?? 0);
    }
    let set = this.listeners.get(userId);
    if (!set) this.listeners.set(userId, (set = new Set()));
    set.add(listener);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.pollMs);
      this.timer.unref();
    }
    return () => {
      const s = this.listeners.get(userId);
      s?.delete(listener);
      if (s && !s.size) this.listeners.delete(userId);
      if (!this.listeners.size && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.lastId = null;
      }
    };
  }

  private emit(userId: number, m: StreamMessage): void {
    for (const l of this.listeners.get(userId) ?? []) l(m);
  }

  /** The person's unread count changed here (read, all read, delete): their pages on this instance follow. */
  async changed(userId: number): Promise<void> {
    if (!this.listeners.has(userId)) return;
    this.emit(userId, { event: 'unread', data: { unread: await this.source.unreadOf(userId) } });
  }

  /** One look for new notices (the timer's; tests call it). */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (this.lastId === null) return;
      const rows = await this.db.selectFrom('notices').select(['id', 'user_id', 'hidden']).where('id', '>', this.lastId).orderBy('id').limit(1000).execute();
      if (!rows.length) return;
      this.lastId = Number(rows[rows.length - 1].id);
      // the newest notice of each person with a page open here
      const newest = new Map<number, number>();
      // (a notice hidden by the person's 通知设置 is not pushed)
      for (const r of rows) if (this.listeners.has(Number(r.user_id)) && !Number(r.hidden)) newest.set(Number(r.user_id), Number(r.id));
      for (const [userId, id] of newest) {
        const [unread, notice] = await Promise.all([this.source.unreadOf(userId), this.source.noticeOf(id)]);
        if (notice) this.emit(userId, { event: 'notice', data: { unread, notice } });
      }
    } catch {
      // the next look tries again
    } finally {
      this.polling = false;
    }
  }

  /** Ends every stream (the instance is closing). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const set of [...this.listeners.values()]) for (const l of [...set]) l({ event: 'close' });
    this.listeners.clear();
  }
}
