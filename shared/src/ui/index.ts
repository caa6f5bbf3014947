// @app/shared/ui: antd-based pieces of 云文档 (loaded only after sign-in). Core things are
// imported from '@app/shared' (not by relative path) so that Module Federation shares one
// copy of the store between the shell and the remotes.
export { AppProviders, appTheme } from './AppProviders';
export { createAntdNotifier } from './antdNotifier';
export { AppDialog, type AppDialogProps } from './AppDialog';
export * from './components';
export {
  useOpenPreview,
  openPreview,
  isPreviewable,
  resetPreviewableCache,
  PREVIEW_OPEN_TEXTS,
  type OpenPreviewTarget,
  type PreviewSibling,
} from './preview/useOpenPreview';
