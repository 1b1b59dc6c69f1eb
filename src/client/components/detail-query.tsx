import { PageMeta } from '@/components/page-meta';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@/lib/router';
import type * as React from 'react';
import { QueryLoadError } from '@/components/query-load-error';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';

interface NotFound {
  title: string;
  text: string;
  back: { to: string; label: string };
}

/** The page a missing (or someone else's: the API answers 404 for both) item gets: what happened, and a way back. */
export function DetailNotFound({ title, text, back }: NotFound) {
  return (
    <Card className="mx-auto max-w-xl space-y-3 p-8 text-center">
      <PageMeta title={`${title} — RuralRoute`} />
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-muted-foreground">{text}</p>
      <Link to={back.to} className="inline-block font-medium text-primary underline underline-offset-4">
        {back.label}
      </Link>
    </Card>
  );
}

/** One item's page (a request, a booking): loading, a 404 as a clear not-found page, a failure with a retry, the item. */
export function DetailQuery<T>({
  query,
  what,
  notFound,
  children,
}: {
  query: UseQueryResult<T>;
  /** Names the item in status and error messages, e.g. 'this booking'. */
  what: string;
  notFound: NotFound;
  children: (data: T) => React.ReactNode;
}) {
  const err = query.error;
  // Also after a reload: the item may have been deleted meanwhile.
  if (err instanceof ApiError && err.status === 404) return <DetailNotFound {...notFound} />;
  if (query.data !== undefined) return children(query.data);
  if (query.isError) {
    return (
      <QueryLoadError
        what={what}
        error={err}
        onRetry={() => void query.refetch()}
        className="rounded-lg border border-destructive/40 p-4"
      />
    );
  }
  return (
    <div role="status" className="space-y-4">
      <span className="sr-only">Loading {what}...</span>
      <Skeleton className="h-9 w-2/3" />
      <Card className="space-y-3 p-6">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/3" />
      </Card>
    </div>
  );
}
