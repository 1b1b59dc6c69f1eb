import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type * as React from 'react';
import type { Page } from '@shared/marketplace';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { capitalize } from '@/lib/format';

function errorText(err: unknown): string | null {
  return err instanceof ApiError ? err.message : null;
}

function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  const detail = errorText(error);
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-destructive/40 p-4">
      <p>
        We couldn&apos;t load {what}.{detail ? ` ${detail}` : ''}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * A keyset-paginated list with the states users must always see: loading, a failed load with a retry (never
 * silent), the spec's empty text, the items, and 'Load more' while the server reports a next cursor.
 */
export function PaginatedList<T extends { id: string }>({
  query,
  what,
  empty,
  renderItem,
}: {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>, Error>;
  /** Names the list in status and error messages, e.g. 'your rides'. */
  what: string;
  empty: string;
  renderItem: (item: T) => React.ReactNode;
}) {
  if (query.isPending) {
    return (
      <div role="status" className="space-y-4">
        <span className="sr-only">Loading {what}...</span>
        {[0, 1, 2].map((i) => (
          <Card key={i} className="space-y-3 p-6">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-2/3" />
          </Card>
        ))}
      </div>
    );
  }
  if (query.isError && !query.data) {
    return <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  }

  const items = query.data.pages.flatMap((p) => p.items);
  return (
    <div className="space-y-4">
      {query.isRefetchError ? <LoadError what={what} error={query.error} onRetry={() => void query.refetch()} /> : null}
      {items.length === 0 ? (
        <Card className="p-8 text-center text-muted-foreground">
          <p>{empty}</p>
        </Card>
      ) : (
        <ul className="space-y-4" aria-label={capitalize(what)}>
          {items.map((item) => (
            <li key={item.id}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
      {query.isFetchNextPageError ? (
        <LoadError what={`more of ${what}`} error={query.error} onRetry={() => void query.fetchNextPage()} />
      ) : null}
      {query.hasNextPage && !query.isFetchNextPageError ? (
        <div className="flex justify-center">
          <Button variant="outline" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? 'Loading more...' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
