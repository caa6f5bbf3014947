// Files dropped on the page: folders are read recursively through the entries API
// (readEntries is called until it answers empty), and the result is handed to the queue in
// batches of 50 so that thousands of files never freeze the page. Empty folders inside a
// dropped folder are made too (the folders holding files are made as their files land).
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

/** What a drop holds: its files, and the paths of its empty folders. */
export interface DropContents {
  sources: UploadSource[];
  emptyFolders: string[];
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

/**
 * Every file under `entry`; `prefix` is the path of the folder holding it ('' at the top).
 * The paths of folders with nothing in them go to `emptyFolders`.
 */
export async function readEntry(entry: DropEntry, prefix = '', out: DroppedFile[] = [], emptyFolders: string[] = []): Promise<DroppedFile[]> {
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
    const path = `${prefix}${entry.name}`;
    if (!children.length) emptyFolders.push(path);
    for (const child of children) await readEntry(child, `${path}/`, out, emptyFolders);
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
export function collectDrop(data: Pick<DataTransfer, 'items' | 'files'> | null): Promise<DropContents> {
  if (!data) return Promise.resolve({ sources: [], emptyFolders: [] });
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
    const emptyFolders: string[] = [];
    for (const entry of entries) {
      if (entry.isFile) {
        // a file dropped by itself keeps its plain name
        try {
          out.push(await readFile(entry));
        } catch {
          // left out
        }
      } else {
        out.push(...(await readEntry(entry, '', [], emptyFolders)));
      }
    }
    return { sources: out, emptyFolders };
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
 * Sends what a drop holds to `target`: warns (once) above maxFileCount, hands the files to
 * the engine 50 at a time, then has its empty folders made. Resolves with how many files
 * were listed.
 */
export async function uploadDrop(
  pending: Promise<DropContents>,
  target: UploadPath,
  engine: {
    add(sources: readonly UploadSource[], target: UploadPath, opts?: { quiet?: boolean }): Promise<unknown>;
    addFolders(paths: readonly string[], target: UploadPath): Promise<unknown>;
    loadOptions(): Promise<{ maxFileCount: number }>;
  },
  warn: (message: string) => void,
  yieldToUi: () => Promise<void> = nextFrame,
): Promise<number> {
  const { sources, emptyFolders } = await pending;
  if (sources.length) {
    const { maxFileCount } = await engine.loadOptions();
    if (sources.length > maxFileCount) warn(Messages.tooManyFiles(maxFileCount));
    await enqueueInBatches(sources, target, (batch, t) => engine.add(batch, t, { quiet: true }), yieldToUi);
  }
  if (emptyFolders.length) await engine.addFolders(emptyFolders, target);
  return sources.length;
}
