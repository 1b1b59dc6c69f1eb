import { useEffect, useRef } from 'react';
import type * as React from 'react';
import { Card } from '@/components/ui/card';

/**
 * Opens an e-mailed link's token once: `open(token)` as the page loads (React's strict mode runs effects twice, and a
 * second POST would find the link used). Returns the heading's ref, which takes the focus once `settled` (the
 * outcome replaces 'Confirming...' and is read first).
 */
export function useEmailLink(token: string, open: (token: string) => void, settled: boolean) {
  const openedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || openedFor.current === token) return;
    openedFor.current = token;
    open(token);
  }, [token, open]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (settled) headingRef.current?.focus();
  }, [settled]);
  return headingRef;
}

/** The page of an e-mailed link ('/confirm-email', '/verify-email'): a card with its heading and a live outcome. */
export function EmailLinkCard({
  title,
  headingRef,
  children,
}: {
  title: string;
  headingRef: React.Ref<HTMLHeadingElement>;
  children: React.ReactNode;
}) {
  return (
    <div className="flex justify-center px-4 py-10">
      <Card className="w-full max-w-md space-y-4 p-6 md:p-8">
        <h1 ref={headingRef} tabIndex={-1} className="rounded-sm text-2xl font-bold focus:outline-none">
          {title}
        </h1>
        <div aria-live="polite" className="space-y-4">
          {children}
        </div>
      </Card>
    </div>
  );
}

/** A text link inside such a card ('Sign in', 'Go to Settings'). */
export const emailLinkClass =
  'rounded-sm font-medium text-primary underline underline-offset-4 hover:decoration-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
