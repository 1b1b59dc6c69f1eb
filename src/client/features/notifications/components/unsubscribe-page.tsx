import { useEffect, useRef } from 'react';
import type * as React from 'react';
import { Link, useSearchParams } from '@/lib/router';
import { NOTIFICATION_TYPE_LABELS, UNSUBSCRIBE_INVALID_MESSAGE } from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { useResubscribe, useUnsubscribe } from '../api/settings';

const linkClass =
  'rounded-sm font-medium text-primary underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** A refusal of the token itself (unknown, tampered with, or for a security notice): trying again will not help. */
const isInvalidToken = (err: unknown) => err instanceof ApiError && err.status === 400;

/**
 * '/unsubscribe?token=...', the link at the foot of an e-mail: it switches that type's e-mails off as soon as it
 * opens, without signing in (the signed token says whose and which), and offers 'Undo'.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();
  const resubscribe = useResubscribe();
  const { mutate } = unsubscribe;
  const messageRef = useRef<HTMLParagraphElement>(null);

  // Once per token: React's strict mode runs effects twice (a second POST would be harmless, but is not needed).
  const postedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || postedFor.current === token) return;
    postedFor.current = token;
    mutate(token);
  }, [token, mutate]);

  let body: React.ReactNode;
  if (!token || isInvalidToken(unsubscribe.error)) {
    body = (
      <>
        <p>{UNSUBSCRIBE_INVALID_MESSAGE}</p>
        <Link to={PAGE_PATHS.auth} className={linkClass}>
          Sign in
        </Link>
      </>
    );
  } else if (unsubscribe.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>
          We couldn&apos;t unsubscribe you.
          {unsubscribe.error instanceof ApiError ? ` ${unsubscribe.error.message}` : ''}
        </p>
        <Button variant="outline" onClick={() => mutate(token)}>
          Try again
        </Button>
      </div>
    );
  } else if (unsubscribe.data) {
    const label = NOTIFICATION_TYPE_LABELS[unsubscribe.data.type];
    const undone = resubscribe.isSuccess;
    body = (
      <>
        <p ref={messageRef} tabIndex={-1} className="rounded-sm focus:outline-none">
          {undone ? `E-mails about “${label}” are on again.` : `You won't get e-mails about “${label}” any more.`}
        </p>
        <div className="flex flex-wrap items-center gap-4">
          {undone ? null : (
            <Button
              variant="outline"
              disabled={resubscribe.isPending}
              // 'Undo' goes away once done: the sentence that says so takes the focus.
              onClick={() => resubscribe.mutate(token, { onSuccess: () => messageRef.current?.focus() })}
            >
              {resubscribe.isPending ? 'Undoing...' : 'Undo'}
            </Button>
          )}
          <Link to={PAGE_PATHS.notificationSettings} className={linkClass}>
            Notification settings
          </Link>
        </div>
      </>
    );
  } else {
    body = <p>Unsubscribing...</p>;
  }

  return (
    <div className="flex justify-center px-4 py-10">
      <Card className="w-full max-w-md space-y-4 p-6 md:p-8">
        <h1 className="text-2xl font-bold">E-mail notifications</h1>
        <div aria-live="polite" className="space-y-4">
          {body}
        </div>
      </Card>
    </div>
  );
}
