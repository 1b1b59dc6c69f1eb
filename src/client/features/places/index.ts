/** Places and Browse filters: what the rides and requests pages use. */
export { BrowseList, useBrowseFilters } from './components/browse-list';
