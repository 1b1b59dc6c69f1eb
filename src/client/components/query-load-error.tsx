import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';

/** A query that failed: 'We couldn't load {what}.' with the server's reason when it gave one, and 'Try again'. */
export function QueryLoadError({
  what,
  error,
  onRetry,
  className,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={cn('flex flex-col items-start gap-3', className)}>
      <p>
        We couldn&apos;t load {what}.{error instanceof ApiError ? ` ${error.message}` : ''}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
