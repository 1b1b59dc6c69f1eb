import type * as React from 'react';
import { REPORT_REASONS, type AdminReport } from '@shared/moderation';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { useResolveReport } from '../api/admin-reports';

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="break-words font-medium">{children}</dd>
    </div>
  );
}

/**
 * One open report with what a moderator needs to decide. The booking is named, not linked: its page answers only
 * its driver and requester, which the moderator usually is not.
 */
export function AdminReportCard({ report, onResolved }: { report: AdminReport; onResolved: () => void }) {
  const resolve = useResolveReport();
  const { reported } = report;
  const run = (action: 'dismiss' | 'suspend') => resolve.mutateAsync({ id: report.id, action });
  const headingId = `report-${report.id}`;
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>Report about {reported.full_name}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Item term="Reported person">
            {reported.full_name}
            {reported.suspended ? ' (suspended)' : ''}
          </Item>
          <Item term="Reported by">{report.reporter.full_name}</Item>
          <Item term="Reason">{REPORT_REASONS[report.reason]}</Item>
          <Item term="Date">{formatInstant(report.created_at)}</Item>
          {report.booking ? <Item term="Booking">{report.booking.request_title}</Item> : null}
        </dl>
        <div>
          <p className="text-sm text-muted-foreground">Details</p>
          {/* Plain text as written: line breaks kept, nothing interpreted. */}
          <p className="whitespace-pre-wrap break-words">{report.details}</p>
        </div>
        {report.review ? (
          <div>
            <p className="text-sm text-muted-foreground">
              Reported review: {report.review.rating} {report.review.rating === 1 ? 'star' : 'stars'}
            </p>
            <p className="whitespace-pre-wrap break-words">{report.review.comment ?? 'No comment.'}</p>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            disabled={resolve.isPending}
            onClick={() => run('dismiss').then(onResolved, () => undefined)}
          >
            {resolve.isPending && resolve.variables.action === 'dismiss' ? 'Dismissing...' : 'Dismiss'}
          </Button>
          <ConfirmActionButton
            variant="destructive"
            disabled={resolve.isPending}
            title={`Suspend ${reported.full_name}?`}
            description={`${reported.full_name} will not be able to sign in. Any sessions they have end now, and their rides and requests leave Browse.`}
            confirmLabel="Suspend account"
            busyLabel="Suspending..."
            destructive
            onConfirm={() => run('suspend')}
            onDone={onResolved}
          >
            Suspend account
          </ConfirmActionButton>
        </div>
      </CardContent>
    </Card>
  );
}
