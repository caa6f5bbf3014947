// The receiving side of 云文档's ferry: packages imported from the spool directories or pushed
// over HTTPS, verified (signature, zone, novelty, every file's size and SHA-256) before they
// count as delivered; the recipients' 收到的文件 with download until they expire; and the
// receipts (received, downloaded, expired, removed, refused) queued back to the sending zone.
// A refused package is audited with the task and sending zone its manifest names (marked as a
// mere claim when the signature did not hold).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import yazl from 'yazl';
import type { AppConfig } from '../../config';
import type { Database, FerryInboxRow, UserRow } from '../../db/types';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import { contentTypeOf, type Content } from '../downloads/http';
import { userNameKey } from '../users/repository';
import { releaseBlobs, type BlobStore } from '../versions/blobs';
import { appendAudit } from './audit';
import { recordEvent } from '../notices/events';
import { enqueueReceipt, receiptQueued, wasSeen } from './repository';
import type { FerryInboxItem } from './schemas';
import type { FerryService } from './service';
import {
  PackageRefused,
  receivePackageDir,
  receivePackages,
  REJECT_MESSAGES,
  REPORTED_REFUSALS,
  writePackage,
  type ReceivedPackage,
  type Receipt,
  type Rejected,
  type RejectReason,
} from './spool';
import { unpackPush, type PushReply } from './push';
import type { ContentSource } from '../storage/source';

export const INBOX_NOT_FOUND = '收到的文件不存在或无权查看';
const RECEIPT_LEASE_MS = 10 * 60 * 1000;

const displayName = (u: Pick<UserRow, 'nick_name' | 'user_name'>) => u.nick_name || u.user_name;
/** A name from a manifest, kept short for the audit (an unsigned manifest may say anything). */
const clip = (v: unknown, max = 64): string | undefined => (typeof v === 'string' ? ([...v].length > max ? `${[...v].slice(0, max).join('')}…` : v) : undefined);
const wireId = (id: number | string) => String(id);

export class FerryInbox {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: AppConfig,
    private readonly ferry: FerryService,
    private readonly blobs: BlobStore,
    private readonly formatTime: TimeFormatter,
  ) {}

  private get root(): string {
    return path.join(this.config.dataDir, 'ferry');
  }

  private seen = (packageId: string) => wasSeen(this.db, packageId);

  // ---- importing -------------------------------------------------------------------------------

  /** Imports every complete package in the spool directories (FERRY_SPOOL_IN). */
  async importSpools(): Promise<{ accepted: number; rejected: Rejected[] }> {
    const secret = this.config.ferry.secret;
    if (!secret) return { accepted: 0, rejected: [] };
    let accepted = 0;
    const rejected: Rejected[] = [];
    for (const dir of this.config.ferry.spoolIn) {
      const got = await receivePackages(dir, secret, this.ferry.zone, this.seen, (pkg) => this.accept(pkg, 'spool'));
      accepted += got.accepted.length;
      for (const r of got.rejected) await this.refused(r, 'spool');
      rejected.push(...got.rejected);
    }
    return { accepted, rejected };
  }

  /** POST /api/Ferry/Channel/Packages: a package pushed by a peer. */
  async receivePush(body: AsyncIterable<Buffer>): Promise<PushReply> {
    const secret = this.config.ferry.secret;
    if (!secret) return { accepted: false, reason: 'badSignature', message: '本区域未配置摆渡密钥（FERRY_SECRET），不接收摆渡包' };
    const incoming = path.join(this.root, 'incoming');
    await fs.promises.mkdir(incoming, { recursive: true });
    const unpacked = await unpackPush(body, incoming, secret);
    if ('error' in unpacked) {
      const claimed = unpacked.claimed ?? null;
      await this.refused({ name: '', packageId: claimed?.packageId ?? null, reason: unpacked.error, detail: '', quarantined: '', manifest: claimed, signed: false }, 'https', unpacked.message);
      return { accepted: false, reason: unpacked.error, message: unpacked.message };
    }
    const outcome = await receivePackageDir(unpacked.dir, path.join(this.root, 'quarantine'), secret, this.ferry.zone, this.seen, (pkg) => this.accept(pkg, 'https'));
    if (outcome.rejected) {
      // the reply is the sender's refusal receipt: nothing is queued for an HTTPS peer
      await this.refused(outcome.rejected, 'https');
      return { accepted: false, reason: outcome.rejected.reason, message: REJECT_MESSAGES[outcome.rejected.reason], detail: outcome.rejected.detail };
    }
    return { accepted: true, reason: '', message: '' };
  }

  /**
   * A refused package: audited with the task, number and zones its manifest names (a claim only
   * when its signature did not hold), and, over the spool, reported back to the sending zone.
   */
  private async refused(r: Rejected, channel: 'spool' | 'https', message: string = REJECT_MESSAGES[r.reason]): Promise<void> {
    const m = r.manifest;
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      const receipt = channel === 'spool' && (await this.reportRefusal(trx, r, now));
      await appendAudit(trx, {
        event: 'package.rejected',
        actorId: null,
        actorName: '系统',
        taskId: clip(m?.taskId) ?? '',
        detail: {
          channel,
          packageId: r.packageId,
          kind: m ? (m.kind ?? 'files') : undefined,
          taskNumber: clip(m?.taskNumber),
          from: clip(m?.fromZone),
          to: clip(m?.toZone),
          signed: r.signed,
          reason: r.reason,
          message,
          file: r.detail,
          quarantined: r.quarantined || undefined,
          receipt,
        },
        at: now,
      });
    });
  }

  /**
   * Queues a refusal receipt to the zone that sent a refused package (spool), when it can tell
   * the sender something true and there is a way back. Never about a receipt, a replay or a
   * package that was imported here; never to a one-way sender (FERRY_ACCEPT_FROM, not a peer);
   * once per package. When the signature did not hold, the task and package it names are only
   * claimed: the receipt (signed here, like every receipt) says so by its reason, and the sender
   * acts on it only for the very package it has in transit to this zone.
   */
  private async reportRefusal(trx: Kysely<Database>, r: Rejected, now: number): Promise<boolean> {
    const m = r.manifest;
    if (!m || m.kind === 'receipt' || !REPORTED_REFUSALS.has(r.reason)) return false;
    if (m.toZone !== this.ferry.zone || !this.ferry.peer(m.fromZone) || [...m.taskId].length > 64) return false;
    if ((await wasSeen(trx, m.packageId)) || (await receiptQueued(trx, m.packageId, 'refused'))) return false;
    await enqueueReceipt(trx, { toZone: m.fromZone, taskId: m.taskId, packageId: m.packageId, event: 'refused', byName: '', at: now, reason: r.reason, detail: r.detail.slice(0, 500) });
    return true;
  }

  /** Imports one verified package: files into the store, recipients resolved, receipt queued. */
  private async accept(pkg: ReceivedPackage, channel: 'spool' | 'https'): Promise<void> {
    const m = pkg.manifest;
    if (m.kind === 'receipt') {
      await this.ferry.applyReceipt(m);
      await this.db.insertInto('ferry_seen').values({ package_id: m.packageId, kind: 'receipt', at: Date.now() }).execute().catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err;
      });
      return;
    }
    if (!(await this.ferry.settings.direction(m.fromZone, this.ferry.zone))) throw new PackageRefused('directionClosed', `${m.fromZone} → ${this.ferry.zone}`);
    const md5s = m.files.map((f, i) => (f.size > 0 ? pkg.md5s[i] : ''));
    const settings = await this.ferry.settings.get();
    const now = Date.now();
    const expiresAt = Math.min(m.expiresAt, now + settings.expiryDays * 24 * 60 * 60 * 1000);
    const created: string[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        try {
          await trx.insertInto('ferry_seen').values({ package_id: m.packageId, kind: 'files', at: now }).execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw new PackageRefused('replayed', m.packageId);
          throw err;
        }
        const row = await trx
          .insertInto('ferry_inbox')
          .values({
            package_id: m.packageId,
            task_id: m.taskId,
            task_number: m.taskNumber ?? '',
            from_zone: m.fromZone,
            sender_name: m.senderName ?? '',
            recipients: JSON.stringify(m.recipients),
            reason: m.reason,
            received_at: now,
            expires_at: expiresAt,
            status: 'delivered',
            downloaded_at: null,
            downloaded_by: '',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [i, f] of m.files.entries()) {
          let blobId: number | null = null;
          if (f.size > 0) {
            const adopted = await this.blobs.adopt(trx, pkg.files[i], { md5: md5s[i], crc32: pkg.crc32s[i] ?? null }, f.size, now);
            blobId = adopted.blob?.id ?? null;
            if (adopted.created) created.push(adopted.created);
          }
          await trx.insertInto('ferry_inbox_files').values({ inbox_id: row.id, idx: i, name: f.name, size: f.size, sha256: f.sha256, md5: md5s[i], blob_id: blobId }).execute();
        }
        const keys = m.recipients.map(userNameKey);
        const found = keys.length ? await trx.selectFrom('users').select(['id', 'user_name']).where('user_name_key', 'in', keys).where('disabled', '=', 0).execute() : [];
        // nobody of those names here: the administrators receive it, to pass on
        const holders = found.length ? found : await trx.selectFrom('users').select(['id', 'user_name']).where('is_admin', '=', 1).where('disabled', '=', 0).execute();
        for (const u of holders) await trx.insertInto('ferry_inbox_users').values({ inbox_id: row.id, user_id: u.id }).execute();
        await recordEvent(trx, 'ferry.arrived', { inboxId: Number(row.id), link: this.ferry.inboxLink(), policyChecked: this.config.mode !== 'simple' }, now);
        await appendAudit(trx, {
          event: 'package.received',
          actorId: null,
          actorName: '系统',
          taskId: m.taskId,
          detail: {
            channel,
            packageId: m.packageId,
            from: m.fromZone,
            to: m.toZone,
            sender: m.senderName ?? '',
            recipients: m.recipients,
            unknownRecipients: m.recipients.filter((r) => !found.some((u) => userNameKey(u.user_name) === userNameKey(r))),
            files: m.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256 })),
          },
          at: now,
        });
        await enqueueReceipt(trx, { toZone: m.fromZone, taskId: m.taskId, packageId: m.packageId, event: 'received', byName: '', at: now });
      });
    } catch (err) {
      await this.blobs.remove(created);
      throw err;
    }
  }

  // ---- reading and downloading -----------------------------------------------------------------

  private view(row: FerryInboxRow, files: Array<{ idx: number; name: string; size: number; sha256: string }>): FerryInboxItem {
    return {
      id: wireId(row.id),
      taskId: row.task_id,
      number: row.task_number,
      fromZone: row.from_zone,
      senderName: row.sender_name,
      reason: row.reason,
      files: files.map((f) => ({ index: f.idx, name: f.name, size: Number(f.size), sha256: f.sha256 })),
      totalSize: files.reduce((s, f) => s + Number(f.size), 0),
      status: row.status as FerryInboxItem['status'],
      receivedAt: this.formatTime(row.received_at),
      expiresAt: this.formatTime(row.expires_at),
      downloadedAt: row.downloaded_at === null ? '' : this.formatTime(row.downloaded_at),
    };
  }

  /** GET /api/Ferry/Inbox: what reached the caller, newest first. */
  async list(user: UserRow, page: number, pageSize: number): Promise<{ data: FerryInboxItem[]; total: number }> {
    await this.ferry.requireAccess(user);
    const mine = this.db.selectFrom('ferry_inbox').innerJoin('ferry_inbox_users as u', 'u.inbox_id', 'ferry_inbox.id').where('u.user_id', '=', user.id);
    const [rows, count] = await Promise.all([
      mine
        .selectAll('ferry_inbox')
        .orderBy('ferry_inbox.received_at', 'desc')
        .orderBy('ferry_inbox.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const files = rows.length
      ? await this.db
          .selectFrom('ferry_inbox_files')
          .select(['inbox_id', 'idx', 'name', 'size', 'sha256'])
          .where(
            'inbox_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('idx')
          .execute()
      : [];
    return { data: rows.map((r) => this.view(r, files.filter((f) => Number(f.inbox_id) === Number(r.id)))), total: Number(count.n) };
  }

  private async visible(user: UserRow, idText: string): Promise<FerryInboxRow> {
    const id = parseId(idText);
    const row =
      id === null
        ? undefined
        : await this.db
            .selectFrom('ferry_inbox')
            .innerJoin('ferry_inbox_users as u', 'u.inbox_id', 'ferry_inbox.id')
            .selectAll('ferry_inbox')
            .where('ferry_inbox.id', '=', id)
            .where('u.user_id', '=', user.id)
            .executeTakeFirst();
    if (!row) throw notFound(INBOX_NOT_FOUND);
    return row;
  }

  private async downloadable(user: UserRow, idText: string): Promise<FerryInboxRow> {
    await this.ferry.requireAccess(user);
    const row = await this.visible(user, idText);
    if (row.status === 'expired' || row.expires_at <= Date.now()) throw new AppError(410, 41001, '文件已过期，已从本区域删除');
    if (row.status === 'removed') throw new AppError(410, 41002, '文件已被移除');
    return row;
  }

  private async sourceOf(size: number, blobId: number | null): Promise<ContentSource | null> {
    const key = size > 0 ? await this.storageKey(blobId) : null;
    return key ? this.blobs.source(key) : null;
  }

  private async storageKey(blobId: number | null): Promise<string | null> {
    if (blobId === null) return null;
    const b = await this.db.selectFrom('blobs').select('storage_key').where('id', '=', blobId).executeTakeFirst();
    return b ? b.storage_key : null;
  }

  /** GET /api/Ferry/Inbox/{id}/Download?index=n: one received file. */
  async fileContent(user: UserRow, idText: string, index: number): Promise<{ content: Content; row: FerryInboxRow }> {
    const row = await this.downloadable(user, idText);
    const file = await this.db.selectFrom('ferry_inbox_files').selectAll().where('inbox_id', '=', row.id).where('idx', '=', index).executeTakeFirst();
    if (!file) throw notFound('文件不存在');
    const size = Number(file.size);
    const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
    return {
      row,
      content: {
        source: await this.sourceOf(size, file.blob_id),
        size,
        etag: `"${file.sha256}-${size}"`,
        lastModifiedMs: Number(row.received_at),
        fileName: file.name,
        contentType: contentTypeOf(ext),
      },
    };
  }

  /** GET /api/Ferry/Inbox/{id}/Download: every file of the package as one zip, streamed. */
  async zip(user: UserRow, idText: string): Promise<{ stream: NodeJS.ReadableStream; fileName: string; row: FerryInboxRow }> {
    const row = await this.downloadable(user, idText);
    const files = await this.db.selectFrom('ferry_inbox_files').selectAll().where('inbox_id', '=', row.id).orderBy('idx').execute();
    const zip = new yazl.ZipFile();
    const used = new Set<string>();
    for (const f of files) {
      let name = f.name.replace(/[\\/]/g, '_') || `file-${f.idx}`;
      for (let n = 2; used.has(name.toLowerCase()); n++) name = f.name.replace(/(\.[^.]*)?$/, ` (${n})$1`);
      used.add(name.toLowerCase());
      const source = await this.sourceOf(Number(f.size), f.blob_id);
      if (source) {
        // opened when the archive reaches it, one at a time
        zip.addReadStreamLazy(name, { compress: false, size: Number(f.size) }, (cb) => {
          source.open().then(
            (stream) => cb(null, stream),
            (err: Error) => cb(err, undefined as never),
          );
        });
      } else zip.addBuffer(Buffer.alloc(0), name);
    }
    zip.end();
    return { stream: zip.outputStream, fileName: `${row.task_number || `摆渡-${row.id}`}.zip`, row };
  }

  /** A download began: the first marks the package downloaded and tells the sender; every one is audited. */
  async noteDownload(user: UserRow, row: FerryInboxRow, what: string): Promise<void> {
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      const first = await trx
        .updateTable('ferry_inbox')
        .set({ status: 'downloaded', downloaded_at: now, downloaded_by: displayName(user) })
        .where('id', '=', row.id)
        .where('status', '=', 'delivered')
        .executeTakeFirst();
      await appendAudit(trx, { event: 'file.downloaded', actorId: user.id, actorName: displayName(user), taskId: row.task_id, detail: { packageId: row.package_id, from: row.from_zone, file: what }, at: now });
      if (Number(first.numUpdatedRows) > 0) {
        await enqueueReceipt(trx, { toZone: row.from_zone, taskId: row.task_id, packageId: row.package_id, event: 'downloaded', byName: displayName(user), at: now });
      }
    });
  }

  /** DELETE /api/Ferry/Inbox/{id}: a recipient removes the files before they expire. */
  async remove(user: UserRow, idText: string): Promise<{ id: string }> {
    await this.ferry.requireAccess(user);
    const row = await this.visible(user, idText);
    if (row.status === 'expired' || row.status === 'removed') throw new AppError(409, 40901, '文件已过期或已被移除');
    await this.retire(row, 'removed', user);
    return { id: wireId(row.id) };
  }

  /** Expired or removed: the files go (their blobs let go), the sender is told. */
  private async retire(row: FerryInboxRow, to: 'expired' | 'removed', user?: UserRow): Promise<boolean> {
    const now = Date.now();
    let gone: string[] = [];
    const moved = await this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('ferry_inbox')
        .set({ status: to })
        .where('id', '=', row.id)
        .where('status', 'in', ['delivered', 'downloaded'])
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) return false;
      const files = await trx.selectFrom('ferry_inbox_files').select('blob_id').where('inbox_id', '=', row.id).execute();
      await trx.updateTable('ferry_inbox_files').set({ blob_id: null }).where('inbox_id', '=', row.id).execute();
      gone = await releaseBlobs(
        trx,
        files.map((f) => f.blob_id),
      );
      const by = user ? displayName(user) : '系统';
      await appendAudit(trx, { event: `inbox.${to}`, actorId: user?.id ?? null, actorName: by, taskId: row.task_id, detail: { packageId: row.package_id, from: row.from_zone }, at: now });
      await enqueueReceipt(trx, { toZone: row.from_zone, taskId: row.task_id, packageId: row.package_id, event: to, byName: by, at: now });
      return true;
    });
    await this.blobs.remove(gone);
    return moved;
  }

  /** Received packages past their expiry lose their files. */
  async expire(now: number = Date.now()): Promise<number> {
    const rows = await this.db.selectFrom('ferry_inbox').selectAll().where('status', 'in', ['delivered', 'downloaded']).where('expires_at', '<=', now).limit(500).execute();
    let n = 0;
    for (const row of rows) if (await this.retire(row, 'expired')) n++;
    return n;
  }

  // ---- receipts --------------------------------------------------------------------------------

  /** Writes the queued receipts into each sending zone's channel. */
  async sendReceipts(): Promise<number> {
    const secret = this.config.ferry.secret;
    if (!secret) return 0;
    const now = Date.now();
    const due = await this.db.selectFrom('ferry_receipts').selectAll().where('sent_at', 'is', null).where('lease_until', '<', now).orderBy('id').limit(200).execute();
    let sent = 0;
    for (const r of due) {
      const claimed = await this.db
        .updateTable('ferry_receipts')
        .set({ lease_until: now + RECEIPT_LEASE_MS })
        .where('id', '=', r.id)
        .where('sent_at', 'is', null)
        .where('lease_until', '<', now)
        .executeTakeFirst();
      if (!Number(claimed.numUpdatedRows)) continue;
      const peer = this.ferry.peer(r.to_zone);
      if (!peer) {
        // a one-way link: nothing goes back; the receipt stays recorded here
        await this.db.updateTable('ferry_receipts').set({ last_error: `未配置到“${r.to_zone}”的摆渡通道，回执无法送回`, lease_until: now + 60 * 60 * 1000 }).where('id', '=', r.id).execute();
        continue;
      }
      const receipt: Receipt = {
        event: r.event as Receipt['event'],
        at: Number(r.at),
        byName: r.by_name,
        packageId: r.package_id,
        ...(r.event === 'refused' ? { reason: r.reason as RejectReason, ...(r.detail ? { detail: r.detail } : {}) } : {}),
      };
      try {
        const pack = (target: string) =>
          writePackage(
            target,
            { kind: 'receipt', packageId: crypto.randomUUID(), taskId: r.task_id, fromZone: this.ferry.zone, toZone: r.to_zone, recipients: [], reason: '', createdAt: now, expiresAt: now, receipt },
            [],
            secret,
          );
        if (peer.channel === 'spool') await pack(peer.dir);
        else await this.ferry.outbox.put(peer.zone, null, pack);
        await this.db.updateTable('ferry_receipts').set({ sent_at: now, last_error: '' }).where('id', '=', r.id).execute();
        sent++;
      } catch (err) {
        await this.db
          .updateTable('ferry_receipts')
          .set({ attempts: r.attempts + 1, last_error: (err as Error).message })
          .where('id', '=', r.id)
          .execute();
      }
    }
    return sent;
  }
}
