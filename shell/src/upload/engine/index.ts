// The shell's upload engine: one per page, registered with @app/shared so that remotes
// and the share page add files through `uploads.enqueue` without importing the shell.
import { appendErrorLog, appStore, notify, registerUploadService, userInfoAtom } from '@app/shared';
import { UploadEngine, type UploadEngineDeps } from './engine';
import { createHasher } from './hasher';
import { createTaskStore } from './taskStore';
import { createHttpTransport } from './transport';

export { UploadEngine, DEFAULT_UPLOAD_OPTIONS, type UploadEngineDeps, type UploadSnapshot } from './engine';
export { createHasher, type Hasher, type HashJob, type HashWorker, type HasherOptions } from './hasher';
export { computeMd5, chunkCount, chunkRange, chooseMd5Engine, type Md5EngineName } from './md5';
export { createTaskStore, UPLOAD_TASKS_KEY, type TaskStore, type TaskRecord, type FileFingerprint } from './taskStore';
export { createHttpTransport, toFormData, type UploadTransport, type TransportTarget, type ChunkUpload } from './transport';

type UploadNotifier = UploadEngineDeps['notify'];
let uploadNotifier: UploadNotifier | null = null;

/** The engine's toasts (the panel sets a 5-second warning); null goes back to @app/shared's notify. */
export function setUploadNotifier(next: UploadNotifier | null): void {
  uploadNotifier = next;
}

/** Where the engine's messages go now. */
export const engineNotify: UploadNotifier = {
  error: (message) => (uploadNotifier ?? notify).error(message),
  warning: (message) => (uploadNotifier ?? notify).warning(message),
};

/** What the error log says when files are hashed by spark-md5 because WebAssembly cannot run. */
export const md5FallbackMessage = (reason: string) =>
  `上传校验无法使用 WebAssembly（${reason}），已改用较慢的 JavaScript MD5（spark-md5）计算文件校验值`;

let fallbackLogged = false;

/** Logs the fallback to spark-md5 once per page (each worker reports its engine per file). */
export function reportMd5Engine(name: string, fallbackReason: string | null): void {
  if (name === 'hash-wasm' || fallbackLogged) return;
  fallbackLogged = true;
  appendErrorLog({ type: 'script', message: md5FallbackMessage(fallbackReason ?? 'WebAssembly 无法运行') });
}

/** An engine on the real API, worker hashing and localStorage sessions; any part may be replaced. */
export function createUploadEngine(deps: Partial<UploadEngineDeps> = {}): UploadEngine {
  return new UploadEngine({
    transport: deps.transport ?? createHttpTransport(),
    hasher: deps.hasher ?? createHasher({ onEngine: reportMd5Engine }),
    tasks: deps.tasks ?? createTaskStore(),
    notify: deps.notify ?? engineNotify,
    owner: deps.owner ?? (() => appStore.get(userInfoAtom)?.userId ?? null),
    ...deps,
  });
}

let engine: UploadEngine | null = null;

/** The page's one engine. */
export function getUploadEngine(): UploadEngine {
  engine ??= createUploadEngine();
  return engine;
}

/** Hands the engine to @app/shared's `uploads`; returns the undo. */
export function installUploadEngine(target: UploadEngine = getUploadEngine()): () => void {
  registerUploadService({
    enqueue: async (files, path) => {
      await target.add(files, path);
    },
    onSettled: (listener) => target.onSettled(listener),
    prepare: () => target.prepare(),
  });
  return () => registerUploadService(null);
}
