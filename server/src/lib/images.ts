// Pictures people upload to 云文档 (avatars, branding): read by sharp, refused unless they are
// one of the accepted formats, and re-encoded, so what is stored and served has no EXIF, no
// scripts and one frame whatever came in.
import sharp from 'sharp';
import { badRequest } from './errors';

/** Pictures larger than this many pixels are refused before they are decoded. */
const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);

export interface ImageEncoding {
  /** how the picture is fitted: a square crop (`cover`) or kept whole inside the box (`inside`) */
  fit: 'cover' | 'inside';
  width: number;
  height: number;
  format: 'webp' | 'png';
  /** the message when the upload is not an accepted picture */
  typesText: string;
}

/** The re-encoded picture, or a 400 with `typesText` for anything that is not a JPG, PNG, WebP or GIF. */
export async function reencodeImage(bytes: Buffer, enc: ImageEncoding): Promise<Buffer> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw badRequest(enc.typesText);
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) throw badRequest(enc.typesText);
  try {
    const img = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(enc.width, enc.height, enc.fit === 'cover' ? { fit: 'cover', position: 'attention' } : { fit: 'inside', withoutEnlargement: true });
    return await (enc.format === 'png' ? img.png({ compressionLevel: 9 }) : img.webp({ quality: 85 })).toBuffer();
  } catch {
    throw badRequest('图片无法读取，文件可能已损坏');
  }
}
