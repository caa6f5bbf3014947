// 云文档 preview (api-contract.md, "Preview"; docs/integration.md, "Preview"): what the preview
// page shows for a file, a version, or a file reached through a share, at the preview level
// (1) or above. A preview never gives more than the level allows: the original bytes of an
// office document only ever go out as a download (level 2); the preview gets its PDF.
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import type { Content } from '../downloads/http';
import { looksLikeText } from '../ferry/filetype';
import { findLiveItem } from '../folders/repository';
import { LEVEL, SPACE_ENTERPRISE, type Level } from '../folders/rights';
import { extensionOf, type FoldersService } from '../folders/service';
import { decodeText } from '../search/extract';
import type { SettingsService } from '../settings/service';
import { SHARE_EXTERNAL } from '../shares/repository';
import type { ShareScope, SharesService } from '../shares/service';
import type { BlobStore } from '../versions/blobs';
import { PreviewConversions, type ConversionSource, type DerivedKind } from './conversions';
import { needsScaling, SCALABLE } from './images';
import { previewMediaType, previewSource, TEXT_PREVIEW_LIMIT, type PreviewSource } from './kinds';
import type { PreviewBody, PreviewPayload } from './schemas';
import { objectSource } from '../storage/source';

const FILE_NOT_FOUND = '文件不存在或已被删除';
const VERSION_NOT_FOUND = '版本不存在或已被删除';
export const CANNOT_PREVIEW = '该文件暂不支持预览';
export const NO_LIBREOFFICE = '服务器未安装 LibreOffice，暂时无法预览 Office 文档，请下载后查看';
/** Empty content has no file: an entity tag still names it. */
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
/** How long a conversion request waits for the PDF before it answers 'converting'. */
const CONVERSION_WAIT_MS = 3000;
/** How long a thumbnail, and a scaled picture, may take while their request waits. */
const THUMBNAIL_WAIT_MS = 3000;
const VIEW_WAIT_MS = 20_000;
/** Pictures smaller than this are sent as they are, without reading their size in pixels. */
const SCALE_CHECK_BYTES = 1024 * 1024;

/** Who asks: a signed-in user, or an outside visitor of an external share (its key). */
export interface PreviewCaller {
  user: UserRow | null;
  accessKey: string | null;
  address: string;
}

interface Target {
  item: ItemRow;
  version: { id: number; size: number; md5: string | null; blob_id: number | null; storage_key: string | null; created_at: number };
  extension: string;
  source: PreviewSource | null;
  level: Level;
  share: ShareScope | null;
  /** a version was asked for (not the master) */
  versionAsked: boolean;
}

export class PreviewService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly shares: SharesService,
    private readonly settings: SettingsService,
    private readonly blobs: BlobStore,
    readonly conversions: PreviewConversions,
    private readonly formatTime: TimeFormatter,
  ) {}

  /** The file (or version) the caller may preview, else 401 (no session, share gone), 403 (share key), 404. */
  private async target(caller: PreviewCaller, fileIdText: string, versionIdText: string | undefined, shareId: string | undefined): Promise<Target> {
    const id = parseId(fileIdText);
    const share = shareId ? await this.shares.open(shareId, { user: caller.user, accessKey: caller.accessKey, address: caller.address }) : null;
    if (!share && !caller.user) throw unauthorized();
    const item = id === null ? undefined : await findLiveItem(this.db, id);
    if (!item) throw notFound(FILE_NOT_FOUND);
    let rights;
    if (share) {
      rights = share.rights;
      await rights.ensure([item]);
    } else {
      const { policy } = await this.folders.context(caller.user!);
      rights = await this.folders.rights.load(caller.user!, policy, [item]);
    }
    if (!rights.can(item, LEVEL.preview)) throw notFound(FILE_NOT_FOUND);
    if (item.type === 'folder') throw badRequest('文件夹不能预览，请打开文件夹查看其中的文件');
    if (item.type !== 'file') throw badRequest('快捷方式不能预览，请打开其指向的文件');
    const versionAsked = versionIdText !== undefined && versionIdText !== '';
    // a share gives the file as it is now, not its history
    if (versionAsked && share) throw notFound(VERSION_NOT_FOUND);
    let q = this.db
      .selectFrom('file_versions')
      .leftJoin('blobs', 'blobs.id', 'file_versions.blob_id')
      .select(['file_versions.id', 'file_versions.size', 'file_versions.md5', 'file_versions.blob_id', 'file_versions.created_at', 'blobs.storage_key'])
      .where('file_versions.item_id', '=', item.id);
    if (versionAsked) {
      const versionId = parseId(versionIdText!);
      if (versionId === null) throw notFound(VERSION_NOT_FOUND);
      q = q.where('file_versions.id', '=', versionId);
    } else q = q.where('file_versions.is_master', '=', 1);
    const row = await q.executeTakeFirst();
    if (!row) throw notFound(versionAsked ? VERSION_NOT_FOUND : FILE_NOT_FOUND);
    const extension = (item.extension || extensionOf(item.name)).toLowerCase();
    return {
      item,
      version: {
        id: Number(row.id),
        size: Number(row.size),
        md5: row.md5,
        blob_id: row.blob_id === null ? null : Number(row.blob_id),
        storage_key: row.storage_key,
        created_at: Number(row.created_at),
      },
      extension,
      source: previewSource(extension),
      level: rights.level(item),
      share,
      versionAsked,
    };
  }

  private conversionSource(t: Target): ConversionSource | null {
    const { version } = t;
    if (version.blob_id === null || !version.md5 || version.size === 0) return null;
    return { blobId: version.blob_id, md5: version.md5, size: version.size, extension: t.extension };
  }

  /** POST /api/User/FileTransfer/CreateComponentData */
  async componentData(caller: PreviewCaller, body: PreviewBody): Promise<PreviewPayload> {
    const t = await this.target(caller, body.fileId, body.versionId, body.shareId);
    const { item, version, source, share } = t;
    if (!source) throw badRequest(CANNOT_PREVIEW);
    if (source === 'office') {
      if (!this.conversions.makers.pdf.available) throw new AppError(503, 50301, NO_LIBREOFFICE);
      // the conversion starts now: it runs while the page loads
      const from = this.conversionSource(t);
      if (from) {
        await this.conversions.request('pdf', from);
        void this.conversions.drain();
      }
    }
    // a picture too large to send as it is is shown scaled (made once, like a PDF)
    let scaled = false;
    if (source === 'image' && SCALABLE.has(t.extension) && version.size > SCALE_CHECK_BYTES && version.storage_key) {
      const from = this.conversionSource(t);
      const key = version.storage_key;
      scaled = from !== null && (await this.blobs.withFile(key, (file) => needsScaling(file)));
      if (scaled) {
        await this.conversions.request('view', from!);
        void this.conversions.drain();
      }
    }
    const query = new URLSearchParams();
    if (t.versionAsked) query.set('versionId', String(version.id));
    if (share) query.set('shareId', share.share.id);
    const qs = query.size ? `?${query}` : '';
    const base = `/api/User/Preview/${item.id}`;
    const download = t.level >= LEVEL.download;
    return {
      fileId: String(item.id),
      source,
      data: {
        name: item.name,
        extension: t.extension,
        size: version.size,
        updatedAt: this.formatTime(t.versionAsked ? version.created_at : Number(item.updated_at)),
        versionId: t.versionAsked ? String(version.id) : null,
        shareId: share ? share.share.id : null,
        url: `${base}/${source === 'text' ? 'Text' : source === 'office' ? 'Pdf' : scaled ? 'Image' : 'Content'}${qs}`,
        thumbnailUrl: source === 'image' && SCALABLE.has(t.extension) ? `${base}/Thumbnail${qs}` : null,
        conversionUrl: source === 'office' ? `${base}/Conversion${qs}` : null,
        downloadUrl: download ? this.downloadUrl(t) : null,
        watermark: await this.watermark(caller, item),
      },
      permissionVo: { level: t.level, download },
      PreviewActions: { previewable: true },
    };
  }

  private downloadUrl(t: Target): string {
    const id = t.item.id;
    if (t.share) {
      const shareId = encodeURIComponent(t.share.share.id);
      return Number(t.share.share.share_type) === SHARE_EXTERNAL
        ? `/api/User/FileTransfer/ExternalDownload/${id}?urlKey=${shareId}`
        : `/api/User/FileTransfer/Download/${id}?shareId=${shareId}`;
    }
    return `/api/User/FileTransfer/Download/${id}${t.versionAsked ? `?versionId=${t.version.id}` : ''}`;
  }

  /** The viewer's name and the time, over enterprise files while the setting is on. */
  private async watermark(caller: PreviewCaller, item: ItemRow): Promise<string | null> {
    if (Number(item.space_type) !== SPACE_ENTERPRISE) return null;
    if (!(await this.settings.previewPolicy()).watermark) return null;
    const when = this.formatTime(Date.now()).slice(0, 16);
    const who = caller.user ? `${caller.user.nick_name || caller.user.user_name}（${caller.user.user_name}）` : '外部访客';
    return `${who} ${when}`;
  }

  private contentOf(t: Target, contentType: string): Content {
    const { version, item } = t;
    return {
      source: version.size > 0 && version.storage_key ? this.blobs.source(version.storage_key) : null,
      size: version.size,
      etag: `"${version.md5 ?? EMPTY_MD5}-${version.size}"`,
      lastModifiedMs: Number(version.created_at),
      fileName: item.name,
      contentType,
      inline: true,
    };
  }

  /** GET /api/User/Preview/{fileId}/Content: the bytes of a picture, PDF, video or audio, shown in place. */
  async content(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string): Promise<Content> {
    const t = await this.target(caller, fileIdText, versionId, shareId);
    if (t.source === 'text' || t.source === 'office' || !t.source) throw badRequest(CANNOT_PREVIEW);
    return this.contentOf(t, previewMediaType(t.extension));
  }

  /** GET /api/User/Preview/{fileId}/Text: a text file's first TEXT_PREVIEW_LIMIT bytes, decoded. */
  async text(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string) {
    const t = await this.target(caller, fileIdText, versionId, shareId);
    if (t.source !== 'text') throw badRequest(CANNOT_PREVIEW);
    const { source, size } = this.contentOf(t, 'text/plain');
    if (source === null || size === 0) return { text: '', encoding: 'utf-8' as const, size: 0, truncated: false };
    const parts: Buffer[] = [];
    for await (const chunk of await source.open({ start: 0, end: Math.min(size, TEXT_PREVIEW_LIMIT) - 1 })) parts.push(chunk as Buffer);
    const buf = Buffer.concat(parts);
    if (!looksLikeText(buf.subarray(0, 8192))) throw badRequest('该文件不是文本文件，无法按文本预览');
    const { text, encoding } = decodeText(buf);
    return { text, encoding, size, truncated: size > TEXT_PREVIEW_LIMIT };
  }

  /** GET /api/User/Preview/{fileId}/Conversion: how an office document's PDF stands (waits a little for it). */
  async conversion(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string) {
    const t = await this.target(caller, fileIdText, versionId, shareId);
    if (t.source !== 'office') throw badRequest(CANNOT_PREVIEW);
    if (!this.conversions.makers.pdf.available) return { status: 'failed' as const, message: NO_LIBREOFFICE };
    const from = this.conversionSource(t);
    if (!from) return { status: 'failed' as const, message: '文件为空，没有可预览的内容' };
    const state = await this.conversions.settle('pdf', from, CONVERSION_WAIT_MS);
    if (state.status === 'ready') return { status: 'ready' as const, message: '' };
    if (state.status === 'failed') return { status: 'failed' as const, message: state.message };
    return { status: 'converting' as const, message: '正在转换文档，请稍候' };
  }

  /** What `kind` made of a picture, as a content to send; 404 while not made (a thumbnail), 409 (a scaled view), 422 failed. */
  private async madeImage(t: Target, kind: DerivedKind, waitMs: number): Promise<Content> {
    if (t.source !== 'image' || !SCALABLE.has(t.extension)) throw badRequest(CANNOT_PREVIEW);
    const from = this.conversionSource(t);
    if (!from) throw notFound('没有可显示的图片内容');
    const state = await this.conversions.settle(kind, from, waitMs);
    if (state.status === 'failed') throw new AppError(422, 42201, state.message);
    if (state.status !== 'ready') throw kind === 'thumb' ? notFound('缩略图正在生成，请稍后再试') : new AppError(409, 40902, '图片正在处理，请稍后再试');
    return {
      source: objectSource(this.conversions.store, state.key),
      size: state.bytes,
      etag: `"${PreviewConversions.keyOf(kind, from)}"`,
      lastModifiedMs: state.finishedAt || Date.now(),
      fileName: t.item.name.replace(/\.[^.]*$/, '') + '.webp',
      contentType: 'image/webp',
      inline: true,
    };
  }

  /** GET /api/User/Preview/{fileId}/Thumbnail: a picture's thumbnail (256 px, WebP), made once per content. */
  async thumbnail(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string): Promise<Content> {
    return this.madeImage(await this.target(caller, fileIdText, versionId, shareId), 'thumb', THUMBNAIL_WAIT_MS);
  }

  /** GET /api/User/Preview/{fileId}/Image: a picture too large to send as it is, scaled to 4096 px. */
  async image(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string): Promise<Content> {
    return this.madeImage(await this.target(caller, fileIdText, versionId, shareId), 'view', VIEW_WAIT_MS);
  }

  /** GET /api/User/Preview/{fileId}/Pdf: the PDF of an office document, once made. */
  async pdf(caller: PreviewCaller, fileIdText: string, versionId?: string, shareId?: string): Promise<Content> {
    const t = await this.target(caller, fileIdText, versionId, shareId);
    if (t.source !== 'office') throw badRequest(CANNOT_PREVIEW);
    if (!this.conversions.makers.pdf.available) throw new AppError(503, 50301, NO_LIBREOFFICE);
    const from = this.conversionSource(t);
    if (!from) throw badRequest('文件为空，没有可预览的内容');
    const state = await this.conversions.state('pdf', from);
    if (state.status === 'failed') throw new AppError(422, 42201, state.message);
    if (state.status !== 'ready') throw new AppError(409, 40902, '文档正在转换，请稍后再试');
    return {
      source: objectSource(this.conversions.store, state.key),
      size: state.bytes,
      etag: `"${PreviewConversions.keyOf('pdf', from)}"`,
      lastModifiedMs: state.finishedAt || Date.now(),
      fileName: t.item.name.replace(/\.[^.]*$/, '') + '.pdf',
      contentType: 'application/pdf',
      inline: true,
    };
  }
}
