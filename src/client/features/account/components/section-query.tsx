import type { UseQueryResult } from '@tanstack/react-query';
import type * as React from 'react';
import { QueryLoadError } from '@/components/query-load-error';

/** A settings card's data: 'Loading...', a failure with 'Try again', or the content. */
export function SectionQuery<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  /** Names the data in the status and error messages, e.g. 'your profile'. */
  what: string;
  children: (data: T) => React.ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <QueryLoadError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <p role="status" className="text-muted-foreground">
      Loading {what}...
    </p>
  );
}
