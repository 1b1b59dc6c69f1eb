import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type * as React from 'react';
import { useSearchParams } from '@/lib/router';
import type { Page } from '@shared/marketplace';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Card } from '@/components/ui/card';
import { apiFilters, filterErrorsOf } from '../lib/filter-params';
import { BrowseFilterBar } from './browse-filter-bar';

/** The Browse filters of the current URL, as the list endpoint takes them, and whether any is set. */
export function useBrowseFilters() {
  const [params] = useSearchParams();
  const api = apiFilters(params);
  return { params, api, active: Object.keys(api).length > 0 };
}

/**
 * A Browse page: its title, the filter bar, and the keyset list of what matches. A filter the server refuses (a
 * shared link with 'To' before 'From') is shown by its field, with the list waiting for a fix, not as a failed load.
 */
export function BrowseList<T extends { id: string }>({
  title,
  idPrefix,
  filterLabel,
  filters,
  query,
  what,
  empty,
  noMatch,
  renderItem,
  actions,
}: {
  title: string;
  /** Buttons of the title bar ('Save this search'). */
  actions?: React.ReactNode;
  idPrefix: string;
  filterLabel: string;
  filters: ReturnType<typeof useBrowseFilters>;
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>, Error>;
  what: string;
  /** The spec's text for an empty list without filters, and the text when filters match nothing. */
  empty: string;
  noMatch: string;
  renderItem: (item: T) => React.ReactNode;
}) {
  const serverErrors = filterErrorsOf(query.error, filters.params);
  return (
    <div>
      <PageHeader title={title} actions={actions} />
      <BrowseFilterBar idPrefix={idPrefix} label={filterLabel} serverErrors={serverErrors} />
      {serverErrors ? (
        <Card className="p-8 text-center text-muted-foreground">
          <p>Change the filters above to see {what}.</p>
        </Card>
      ) : (
        <PaginatedList query={query} what={what} empty={filters.active ? noMatch : empty} renderItem={renderItem} />
      )}
    </div>
  );
}
