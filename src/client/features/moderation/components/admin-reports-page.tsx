import { useRef } from 'react';
import { MODERATION_TEXT } from '../../../../shared/moderation';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { useOpenReports } from '../api/admin-reports';
import { AdminReportCard } from './admin-report-card';

/** '/dashboard/admin/reports' (admins only): open reports, oldest first, to dismiss or act on. */
export function AdminReportsPage() {
  // A resolved report leaves the list: focus goes to the list's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
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
    </div>
  );
}
