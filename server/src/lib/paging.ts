// Paging fields of every 云文档 list call, from one place: `page` from 1 up to MAX_PAGE and
// `pageSize` up to the list's own ceiling. A page number past the bound (`page=1e30` is a valid
// JSON-Schema integer) is refused with 400 before it reaches SQL as an offset.
import { Type } from 'typebox';

/** The highest page number a list answers (1,000,000 pages of 1,000 is far past any list). */
export const MAX_PAGE = 1_000_000;

const pageDoc = { minimum: 1, maximum: MAX_PAGE, description: '页码，从 1 开始' };
const sizeDoc = (maxSize: number) => ({ minimum: 1, maximum: maxSize, description: `每页条数，最多 ${maxSize}` });

/** `page` and `pageSize`, optional in the request; the defaults are filled in by validation. */
export function Paging(defaultSize: number, maxSize: number) {
  return {
    page: Type.Optional(Type.Integer({ ...pageDoc, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ ...sizeDoc(maxSize), default: defaultSize })),
  };
}

/** The same fields, typed as always present (validation fills in the defaults). */
export function PagingFilled(defaultSize: number, maxSize: number) {
  return {
    page: Type.Integer({ ...pageDoc, default: 1 }),
    pageSize: Type.Integer({ ...sizeDoc(maxSize), default: defaultSize }),
  };
}
