// A content to send (a download, a zip entry, a preview): its bytes from a local file or from the
// object store, read whole or by range. stat() answers the stored size (null: missing), so a
// response can be refused before any header goes out when the content is gone or cut short.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { ByteRange, ObjectStore } from './store';

export interface ContentSource {
  stat(): Promise<number | null>;
  open(range?: ByteRange): Promise<Readable>;
}

export function fileSource(file: string): ContentSource {
  return {
    async stat() {
      const st = await fs.promises.stat(file).catch(() => null);
      return st && st.isFile() ? st.size : null;
    },
    async open(range) {
      return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
  };
}

export function objectSource(store: ObjectStore, key: string): ContentSource {
  return {
    async stat() {
      return (await store.stat(key))?.size ?? null;
    },
    open: (range) => store.get(key, range),
  };
}
