// The file-ferry pieces of 云文档 that the exchange space (full mode), the simple mode's 文件摆渡
// and the approval of a ferry task show.
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
export { FerryCheckTag, FerryCheckTags, FerryKeywordHits, highlight, FERRY_CHECK_RESULT_TEXT, FERRY_CHECK_RESULT_COLOR } from './checks';
