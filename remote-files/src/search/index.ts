// Search in 云文档's files: the advanced search page and the results shared with the folder pages.
export { AdvancedSearchPage, type AdvancedSearchPageProps } from './AdvancedSearchPage';
export { SearchResults, LIMITED_NOTICE, noResultsText, type SearchResultsProps } from './SearchResults';
export { FolderSearchResults, useFolderSearch, type FolderSearch, type FolderSearchResultsProps } from './FolderSearch';
export { Highlighted, splitByKeyword } from './highlight';
export { advancedSearchPath, SEARCH_PAGE_SIZES, DEFAULT_SEARCH_PAGE_SIZE, type SearchMode } from './searchInfo';
