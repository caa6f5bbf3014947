// Pictures for 云文档's preview, made with sharp (libvips, from npm): a thumbnail for the grid
// and the preview strip, and a scaled view of a picture too large to send as it is. Both are
// WebP, turned upright by their EXIF orientation, never enlarged.
import fs from 'node:fs';
import sharp from 'sharp';
import { ConversionError } from './converter';

/** The longest side of a thumbnail. */
export const THUMB_SIZE = 256;
/** Pictures with more pixels than this are shown scaled to VIEW_SIZE on their longest side. */
export const VIEW_PIXELS = 4096 * 4096;
export const VIEW_SIZE = 4096;

/** The extensions sharp reads (BMP and ICO are shown by the browser as they are, without a thumbnail). */
export const SCALABLE = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'avif']);

async function write(source: string, target: string, size: number, quality: number): Promise<void> {
  const partial = `${target}.${process.pid}.part`;
  try {
    // failOn 'none': a picture with a damaged tail still gives what it has; the pixel limit
    // (sharp's default, about 268 megapixels) stops a decompression bomb
    await sharp(source, { failOn: 'none' }).rotate().resize(size, size, { fit: 'inside', withoutEnlargement: true }).webp({ quality }).toFile(partial);
    await fs.promises.rename(partial, target);
  } catch (err) {
    await fs.promises.rm(partial, { force: true });
    throw new ConversionError(`图片处理失败，文件可能已损坏：${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
}

export const makeThumbnail = (source: string, target: string) => write(source, target, THUMB_SIZE, 75);
export const makeView = (source: string, target: string) => write(source, target, VIEW_SIZE, 85);

/** Whether a picture is too large to send as it is (its header only is read). */
export async function needsScaling(source: string): Promise<boolean> {
  try {
    const { width = 0, height = 0 } = await sharp(source).metadata();
    return width * height > VIEW_PIXELS;
  } catch {
    return false;
  }
}
