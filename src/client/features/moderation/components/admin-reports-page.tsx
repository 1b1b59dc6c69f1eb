import { useRef } from 'react';
import { MODERATION_TEXT } from '@shared/moderation';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { useOpenReports, useSuspendedAccounts } from '../api/admin-reports';
import { AdminReportCard } from './admin-report-card';
import { SuspendedAccountRow } from './suspended-account-row';

/**
 * '/dashboard/admin/reports' (admins only): open reports, oldest first, to dismiss or act on; then the suspended
 * accounts, whose suspension a moderator can lift.
 */
export function AdminReportsPage() {
  // A resolved report leaves the list: focus goes to the list's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const suspendedRef = useRef<HTMLHeadingElement>(null);
  return (
    <div>
      <PageHeader title="Reports" description="Open reports, oldest first." />
      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        Open reports
      </h2>
      <PaginatedList
        query={useOpenReports()}
        what="open reports"
        empty={MODERATION_TEXT.noReports}
        renderItem={(report) => <AdminReportCard report={report} onResolved={() => headingRef.current?.focus()} />}
      />
      <section aria-labelledby="suspended-accounts" className="mt-10 space-y-4">
        <h2 id="suspended-accounts" ref={suspendedRef} tabIndex={-1} className="text-xl font-semibold">
          Suspended accounts
        </h2>
        <PaginatedList
          query={useSuspendedAccounts()}
          what="suspended accounts"
          empty={MODERATION_TEXT.noSuspended}
          renderItem={(account) => (
            <SuspendedAccountRow account={account} onLifted={() => suspendedRef.current?.focus()} />
          )}
        />
      </section>
    </div>
  );
}
