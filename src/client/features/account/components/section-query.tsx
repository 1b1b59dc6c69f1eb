import type { UseQueryResult } from '@tanstack/react-query';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';

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
  if (query.isError) {
    const err = query.error;
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>
          We couldn&apos;t load {what}.{err instanceof ApiError ? ` ${err.message}` : ''}
        </p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <p role="status" className="text-muted-foreground">
      Loading {what}...
    </p>
  );
}
