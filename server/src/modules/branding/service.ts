// Client branding of 云文档 set by administrators: the system name and five pictures (favicon,
// light and dark logos, the large dark logo and the login background). Pictures are re-encoded
// by sharp, written to the object store as `branding/<name>` with a fresh name (so the URL changes
// with the picture and can be cached for good) and served without a session, since the login page
// needs them.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { badRequest, notFound } from '../../lib/errors';
import { ObjectMissing, type ObjectStore } from '../storage/store';
import { reencodeImage, type ImageEncoding } from '../../lib/images';
import type { Branding } from '../settings/schemas';
import type { SettingsService } from '../settings/service';
import type { BrandingImageKind, BrandingNameBody } from './schemas';

export const BRANDING_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const TYPES_TEXT = '只能上传 JPG、PNG、WebP 或 GIF 图片';

const IMAGES: Record<BrandingImageKind, { field: Exclude<keyof Branding, 'systemName_Client'>; encoding: ImageEncoding }> = {
  favicon: { field: 'favroiteIcon', encoding: { fit: 'cover', width: 64, height: 64, format: 'png', typesText: TYPES_TEXT } },
  logoLight: { field: 'logo_Light', encoding: { fit: 'inside', width: 480, height: 96, format: 'webp', typesText: TYPES_TEXT } },
  logoDark: { field: 'logo_Dark', encoding: { fit: 'inside', width: 480, height: 96, format: 'webp', typesText: TYPES_TEXT } },
  logoDarkLarge: { field: 'logo_Dark_Large', encoding: { fit: 'inside', width: 960, height: 240, format: 'webp', typesText: TYPES_TEXT } },
  loginBackground: { field: 'login_Background', encoding: { fit: 'inside', width: 2560, height: 1600, format: 'webp', typesText: TYPES_TEXT } },
};

const NAME = /^(favicon|logoLight|logoDark|logoDarkLarge|loginBackground)-[0-9a-f]{16}\.(webp|png)$/;
const URL_PREFIX = '/api/Client/Branding/Images/';

export class BrandingService {
  constructor(
    private readonly settings: SettingsService,
    private readonly store: ObjectStore,
  ) {}

  async setName(body: BrandingNameBody): Promise<Branding> {
    const name = body.systemName_Client.trim();
    if (!name) throw badRequest('请输入系统名称');
    if ([...name].length > 30) throw badRequest('系统名称不能超过 30 个字符');
    return this.settings.setBranding({ ...(await this.settings.branding()), systemName_Client: name });
  }

  /** Stores the picture for `kind` and points the branding at it; the picture it replaces is removed. */
  async setImage(kind: BrandingImageKind, bytes: Buffer): Promise<Branding> {
    const { field, encoding } = IMAGES[kind];
    const encoded = await reencodeImage(bytes, encoding);
    const name = `${kind}-${crypto.randomBytes(8).toString('hex')}.${encoding.format}`;
    await this.store.put(`branding/${name}`, encoded);
    const before = await this.settings.branding();
    const after = await this.settings.setBranding({ ...before, [field]: URL_PREFIX + name });
    await this.removeUrl(before[field]);
    return after;
  }

  /** Back to the built-in picture. */
  async clearImage(kind: BrandingImageKind): Promise<Branding> {
    const { field } = IMAGES[kind];
    const before = await this.settings.branding();
    const after = await this.settings.setBranding({ ...before, [field]: '' });
    await this.removeUrl(before[field]);
    return after;
  }

  /** The bytes of a picture name this service made, or 404. */
  async imageFile(name: string): Promise<{ stream: Readable; type: string }> {
    if (!NAME.test(name)) throw notFound('图片不存在');
    try {
      return { stream: await this.store.get(`branding/${name}`), type: name.endsWith('.png') ? 'image/png' : 'image/webp' };
    } catch (err) {
      if (err instanceof ObjectMissing) throw notFound('图片不存在');
      throw err;
    }
  }

  private async removeUrl(url: string): Promise<void> {
    const name = url.startsWith(URL_PREFIX) ? url.slice(URL_PREFIX.length) : '';
    if (NAME.test(name)) await this.store.delete([`branding/${name}`]);
  }
}
