// Components that more than one remote of 云文档 renders.
export { FileIcon, type FileIconProps } from './FileIcon';
export { extensionOf, fileTypeGroup, FILE_TYPE_LABELS, type FileTypeGroup } from './fileType';
export { RemotePage, type RemotePageProps } from './RemotePage';
export { RemoteNav, activeNavKey, type NavEntry, type RemoteNavProps } from './RemoteNav';
export { SectionEmpty, UnavailableSection, UNAVAILABLE_NOTE, type SectionEmptyProps } from './SectionEmpty';
export { UnavailablePage } from './UnavailablePage';
export { LoadError, NotFoundSection, PolicyWarning } from './StatusSections';
export { StandaloneGate, type StandaloneGateProps } from './StandaloneGate';
export { mountStandalone } from './mountStandalone';
export { RowLink, useRowLinkStyle, ROW_LINK_CLASS, type RowLinkProps } from './RowLink';
export { ConflictDialog, CONFLICT_DIALOG_TITLE, type ConflictDialogProps, type ConflictDialogResult } from './ConflictDialog';
export { fileNameError, splitFileName, FILE_NAME_MESSAGES } from './fileName';
export {
  UserPicker,
  USER_PICKER_PAGE_SIZE,
  type PickedDepartment,
  type UserPickerProps,
  type UserPickerSelection,
  type UserPickerType,
} from './UserPicker';
export { UploadButton, UPLOAD_TEXTS, useUploadDropTarget, useUploadsSettled } from './UploadButton';
export { useDownload, DOWNLOAD_TEXTS, DOWNLOAD_NOTICE_KEY, type DownloadSource } from './useDownload';
export {
  EMPTY_PICK,
  SHARE_FIELD_TEXTS,
  ShareExpiryField,
  ShareLevelField,
  ShareLimitField,
  ShareTargetsField,
  shareTargetsOf,
  type ShareExpiryChoice,
} from './ShareFields';
export { addNodes, EMPTY_TREE, type TreeState } from './folderTree';
export { FilePicker, FolderPicker, FILE_PICKER_PAGE_SIZE, type FilePickerProps, type FolderPickerProps } from './SpacePickers';
export * from './ferry';
