// The file-ferry pieces of 云文档 that both the exchange space (full mode) and the simple
// mode's 文件摆渡 show.
export { FerrySendForm, cleanRecipients, FERRY_RECENT_PAGE_SIZE, type FerrySendFormProps } from './FerrySendForm';
export { FerryTaskTable, type FerryTaskTableProps } from './FerryTaskTable';
export { FerryTaskDrawer, shortHash, type FerryTaskDrawerProps } from './FerryTaskDrawer';
export { FerryInboxTable, ferryInboxUrl, FERRY_INBOX_RELOAD_DELAY_MS } from './FerryInboxTable';
export {
  FERRY_TEXTS,
  FERRY_TAB_EMPTY,
  FerryLoad,
  FerryStatusTag,
  FerryStatusCell,
  useFerryChanged,
  type FerryLoadProps,
} from './common';
