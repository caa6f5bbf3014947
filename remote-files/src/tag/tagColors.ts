// The colours of 云文档's tags (#rrggbb): the names of the offered ones (TAG_COLORS) for the
// colour picker, and the text colour that reads on a chip filled with a tag's colour.
import { TAG_COLORS } from '@app/shared';

/** The offered colours' names, in TAG_COLORS' order. */
const NAMES = ['红色', '橙色', '黄色', '绿色', '青色', '蓝色', '紫色', '洋红', '灰色'];

export const colorName = (color: string) => {
  const i = (TAG_COLORS as readonly string[]).indexOf(color.toLowerCase());
  return i >= 0 && NAMES[i] ? NAMES[i] : color;
};

/** A new tag's colour unless the user picks another (蓝色). */
export const DEFAULT_TAG_COLOR: string = TAG_COLORS[5] ?? TAG_COLORS[0];

/** Dark text on light colours (黄色), white on the others. */
export function textColorOn(color: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) return '#fff';
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255);
  // relative luminance, sRGB weights (no gamma: enough to pick black or white)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.7 ? 'rgba(0, 0, 0, 0.88)' : '#fff';
}
