// Listing pages kept in each instance's memory while their version stands (docs/decisions/024): Browse's pages with
// its rules of who sees what (blocks, a viewer's own cards and offers), and each person's own lists.
export { createListCache, type BrowseList, type ListCacheSpec } from './browse-cache';
export { myListCache, type MyListPage } from './my-lists-cache';
