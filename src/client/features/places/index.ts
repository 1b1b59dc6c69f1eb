/** Places and Browse filters (issue 14): what the rides and requests pages use. */
export { BrowseList, useBrowseFilters } from './components/browse-list';
