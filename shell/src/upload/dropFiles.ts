// Files dropped on the page: folders are read recursively through the entries API
// (readEntries is called until it answers empty), and the result is handed to the queue in
// batches of 50 so that thousands of files never freeze the page.
import { Messages, PICKER_BATCH_SIZE, type UploadPath, type UploadSource } from '@app/shared';

/** The parts of FileSystemEntry the reader uses (the browser's, or a test's fake). */
export interface DropEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(success: (file: File) => void, error?: (e: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: DropEntry[]) => void, error?: (e: unknown) => void): void };
}

/** A dropped file with its path inside the dropped folder (the folder's own name first). */
export interface DroppedFile {
  file: File;
  relativePath: string;
}

function readFile(entry: DropEntry): Promise<File> {
  return new Promise((resolve, reject) => {
    if (!entry.file) return reject(new Error('not a file'));
    entry.file(resolve, reject);
  });
}

function readBatch(reader: ReturnType<NonNullable<DropEntry['createReader']>>): Promise<DropEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

/** Every file under `entry`; `prefix` is the path of the folder holding it ('' at the top). */
export async function readEntry(entry: DropEntry, prefix = '', out: DroppedFile[] = []): Promise<DroppedFile[]> {
  if (entry.isFile) {
    try {
      const file = await readFile(entry);
      out.push({ file, relativePath: `${prefix}${file.name || entry.name}` });
    } catch {
      // an unreadable file (removed meanwhile, no permission) is left out
    }
    return out;
  }
  if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    const children: DropEntry[] = [];
    // readEntries answers at most about 100 entries at a time: read until it answers none
    for (;;) {
      let batch: DropEntry[];
      try {
        batch = await readBatch(reader);
      } catch {
        break;
      }
      if (!batch.length) break;
      children.push(...batch);
    }
    const path = `${prefix}${entry.name}/`;
    for (const child of children) await readEntry(child, path, out);
  }
  return out;
}

interface ItemLike {
  kind?: string;
  webkitGetAsEntry?(): DropEntry | null;
  getAsFile?(): File | null;
}

/**
 * What a drop holds. The entries must be taken during the drop event itself (the browser
 * empties the DataTransfer afterwards), so call this synchronously in the handler and await
 * the result later.
 */
export function collectDrop(data: Pick<DataTransfer, 'items' | 'files'> | null): Promise<UploadSource[]> {
  if (!data) return Promise.resolve([]);
  const items = Array.from((data.items ?? []) as ArrayLike<ItemLike>).filter((i) => !i.kind || i.kind === 'file');
  const entries: DropEntry[] = [];
  const loose: File[] = [];
  for (const item of items) {
    const entry = item.webkitGetAsEntry?.() ?? null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile?.();
      if (file) loose.push(file);
    }
  }
  if (!entries.length && !loose.length) loose.push(...Array.from(data.files ?? []));
  return (async () => {
    const out: UploadSource[] = [...loose];
    for (const entry of entries) {
      if (entry.isFile) {
        // a file dropped by itself keeps its plain name
        try {
          out.push(await readFile(entry));
        } catch {
          // left out
        }
      } else {
        out.push(...(await readEntry(entry)));
      }
    }
    return out;
  })();
}

export const nextFrame = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Hands `sources` to `enqueue` 50 at a time, yielding to the page between batches. */
export async function enqueueInBatches(
  sources: readonly UploadSource[],
  target: UploadPath,
  enqueue: (batch: UploadSource[], target: UploadPath) => Promise<unknown> | unknown,
  yieldToUi: () => Promise<void> = nextFrame,
  batchSize = PICKER_BATCH_SIZE,
): Promise<void> {
  for (let start = 0; start < sources.length; start += batchSize) {
    if (start > 0) await yieldToUi();
    await enqueue(sources.slice(start, start + batchSize), target);
  }
}

/**
 * Sends what a drop holds to `target`: warns (once) above maxFileCount, then hands the
 * files to the engine 50 at a time. Resolves with how many files were listed.
 */
export async function uploadDrop(
  pending: Promise<UploadSource[]>,
  target: UploadPath,
  engine: {
    add(sources: readonly UploadSource[], target: UploadPath, opts?: { quiet?: boolean }): Promise<unknown>;
    loadOptions(): Promise<{ maxFileCount: number }>;
  },
  warn: (message: string) => void,
  yieldToUi: () => Promise<void> = nextFrame,
): Promise<number> {
  const sources = await pending;
  if (!sources.length) return 0;
  const { maxFileCount } = await engine.loadOptions();
  if (sources.length > maxFileCount) warn(Messages.tooManyFiles(maxFileCount));
  await enqueueInBatches(sources, target, (batch, t) => engine.add(batch, t, { quiet: true }), yieldToUi);
  return sources.length;
}
