// The upload side of the running shell (a lazy chunk, loaded after sign-in or on a share
// page): installs the engine for `uploads.enqueue`, lists again the uploads a reload broke
// off, and renders the panel, the drag mask and the conflict dialog; guards leaving the page
// while files are being sent.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSetAtom } from 'jotai';
import { useLocation } from 'react-router-dom';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import {
  MAX_FILE_COUNT,
  readingFilesAtom,
  UPLOAD_TEXT,
  UploadStatus,
  uploads,
  useUserInfo,
  WARNING_NOTICE_SECONDS,
  type UploadPath,
} from '@app/shared';
import { appTheme } from '@app/shared/ui';
import type { UploadController } from './controller';
import { DragMask } from './DragMask';
import { collectDrop, uploadDrop } from './dropFiles';
import { engineNotify, getUploadEngine, installUploadEngine, setUploadNotifier } from './engine';
import { isUploadPanelPath } from './paths';
import { UploadConflict } from './UploadConflict';
import { UploadPanel } from './UploadPanel';

let installed: UploadController | null = null;

/** The page's engine, handed to @app/shared's `uploads` once. */
export function ensureUploadEngine(): UploadController {
  if (!installed) {
    const engine = getUploadEngine();
    installUploadEngine(engine);
    installed = engine;
  }
  return installed;
}

/** Asks before the page is left while files wait or are being sent. */
export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = UPLOAD_TEXT.leaveConfirm;
      return UPLOAD_TEXT.leaveConfirm;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** Window-level drag handling on the upload paths; true while files are dragged over the page. */
function useFileDrag(enabled: boolean, onDrop: (event: DragEvent) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const drop = useRef(onDrop);
  drop.current = onDrop;
  useEffect(() => {
    if (!enabled) {
      setDragging(false);
      return;
    }
    let depth = 0;
    const onEnter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      // files arriving: the engine gets ready for them while they are dragged
      if (depth === 0 && uploads.getDropTarget()) uploads.prepare();
      depth += 1;
      setDragging(true);
    };
    const onLeave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      // the browser must never open a file dropped on the page
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = uploads.getDropTarget() ? 'copy' : 'none';
    };
    const onDropEvent = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = 0;
      setDragging(false);
      // a drop zone of the page itself took it
      if (event.defaultPrevented) return;
      event.preventDefault();
      drop.current(event);
    };
    const onEnd = () => {
      depth = 0;
      setDragging(false);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDropEvent);
    window.addEventListener('dragend', onEnd);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDropEvent);
      window.removeEventListener('dragend', onEnd);
    };
  }, [enabled]);
  return dragging;
}

const subscribeDropTarget = (listener: () => void) => uploads.onDropTargetChange(listener);
const getDropTarget = () => uploads.getDropTarget();

export interface UploadLayerProps {
  /** the engine (tests pass a fake) */
  controller?: UploadController;
  /** awaited between batches of dropped files */
  yieldToUi?: () => Promise<void>;
}

/** Panel, mask, conflict dialog and leave guard; inside antd's providers. */
export function UploadLayer({ controller: given, yieldToUi }: UploadLayerProps) {
  const controller = useRef(given ?? ensureUploadEngine()).current;
  const subscribe = useCallback((listener: () => void) => controller.subscribe(listener), [controller]);
  const read = useCallback(() => controller.getSnapshot(), [controller]);
  const snapshot = useSyncExternalStore(subscribe, read);
  const dropTarget: UploadPath | null = useSyncExternalStore(subscribeDropTarget, getDropTarget);
  const { pathname } = useLocation();
  const onPath = isUploadPanelPath(pathname);
  const userId = useUserInfo()?.userId ?? null;
  const setReading = useSetAtom(readingFilesAtom);
  const { message } = AntApp.useApp();
  const [expanded, setExpanded] = useState(true);
  const [maxFileCount, setMaxFileCount] = useState(MAX_FILE_COUNT);

  // the engine's toasts through this antd App; the lag warning stays 5 seconds
  useEffect(() => {
    setUploadNotifier({
      error: (m) => void message.error(m),
      warning: (m) => void message.warning({ content: m, duration: WARNING_NOTICE_SECONDS }),
    });
    return () => setUploadNotifier(null);
  }, [message]);

  // uploads a reload broke off come back for the same user; signing out empties the list
  useEffect(() => {
    if (!userId) return;
    controller.restore();
    return () => controller.suspend();
  }, [controller, userId]);

  const busy = snapshot.items.some((i) => i.status === UploadStatus.Uploading || i.status === UploadStatus.Waiting);
  useLeaveGuard(busy);

  const dragging = useFileDrag(onPath, (event) => {
    const target = uploads.getDropTarget();
    if (!target) return;
    const pending = collectDrop(event.dataTransfer);
    setReading(true);
    void uploadDrop(
      pending.finally(() => setReading(false)),
      target,
      controller,
      (m) => engineNotify.warning(m),
      yieldToUi,
    ).catch(() => setReading(false));
  });

  useEffect(() => {
    if (!dragging) return;
    let live = true;
    controller
      .loadOptions()
      .then((o) => live && setMaxFileCount(o.maxFileCount))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [dragging, controller]);

  return (
    <>
      {onPath && snapshot.items.length > 0 ? (
        <UploadPanel snapshot={snapshot} controller={controller} expanded={expanded} onToggle={() => setExpanded((e) => !e)} />
      ) : null}
      {onPath && dragging && dropTarget ? <DragMask maxFileCount={maxFileCount} folderName={dropTarget.namePath || undefined} /> : null}
      <UploadConflict conflict={snapshot.conflict} controller={controller} />
    </>
  );
}

/** The lazy chunk's default export: antd's Chinese providers (no second notifier) around the layer. */
export default function UploadHost(props: UploadLayerProps) {
  return (
    <ConfigProvider locale={zhCN} theme={appTheme}>
      <AntApp component={false}>
        <UploadLayer {...props} />
      </AntApp>
    </ConfigProvider>
  );
}
