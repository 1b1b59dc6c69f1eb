import { useState } from 'react';
import { formatCents } from '@shared/money';
import { paymentStateLabel, type AdminPaymentItem, type AdminPayments } from '@shared/payments';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { QueryLoadError } from '@/components/query-load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatInstant } from '@/lib/format';
import { useAdminPaymentList, useAdminPayments, useLedgerTrail, useReconcile } from '../api/payments';
import { LedgerTable } from './ledger-table';
import { TestModeNotice } from './test-mode-notice';

const TOTALS: [keyof AdminPayments['totals'], string][] = [
  ['held_cents', 'Held'],
  ['released_cents', 'Released'],
  ['refunded_cents', 'Refunded'],
  ['fees_cents', 'Fees'],
  ['guarantee_reserve_cents', 'Delivery Guarantee reserve'],
  ['available_cents', 'Available'],
  ['paid_out_cents', 'Paid out'],
  ['refunds_pending_cents', 'Refunds being sent'],
  ['payouts_pending_cents', 'Payouts being sent'],
];

function Reconciliation({ overview }: { overview: AdminPayments }) {
  const reconcile = useReconcile();
  const r = overview.last_reconciliation;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reconciliation</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {r ? (
          <>
            <p>
              Last run <time dateTime={r.started_at}>{formatInstant(r.started_at)}</time> (
              {r.trigger === 'daily' ? 'daily' : 'by an admin'}): {r.checked} compared, {r.repaired} repaired,{' '}
              {r.differences.length ? `${r.differences.length} difference(s)` : 'no differences'}.
            </p>
            {r.differences.length ? (
              <ul className="list-disc space-y-1 pl-6" aria-label="Differences">
                {r.differences.map((d) => (
                  <li key={`${d.kind}-${d.id}`} className="break-words">
                    {d.detail} ({d.kind}, {d.id}: ledger {formatCents(d.ledger)}, provider {formatCents(d.provider)})
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : (
          <p>Reconciliation has not run yet.</p>
        )}
        <Button onClick={() => reconcile.mutate()} disabled={reconcile.isPending}>
          {reconcile.isPending ? 'Reconciling...' : 'Run reconciliation now'}
        </Button>
      </CardContent>
    </Card>
  );
}

function Trail({ paymentId }: { paymentId: string }) {
  const trail = useLedgerTrail(paymentId, true);
  if (trail.isPending) return <p role="status">Loading the ledger trail...</p>;
  if (!trail.data)
    return <QueryLoadError what="the ledger trail" error={trail.error} onRetry={() => void trail.refetch()} />;
  return <LedgerTable trail={trail.data} />;
}

function PaymentRow({ p }: { p: AdminPaymentItem }) {
  const [open, setOpen] = useState(false);
  return (
    <Card className="space-y-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-words font-semibold">{p.title}</p>
          <p className="text-sm text-muted-foreground">
            <time dateTime={p.paid_at}>{formatInstant(p.paid_at)}</time> · {p.requester_name} paid{' '}
            {formatCents(p.total_cents)} for {p.driver_name} ·{' '}
            {paymentStateLabel(p.state, formatCents(p.refunded_cents))}
          </p>
        </div>
        <Button
          variant="outline"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          aria-label={`Ledger trail of ${p.title}`}
        >
          {open ? 'Hide ledger trail' : 'Ledger trail'}
        </Button>
      </div>
      {open ? <Trail paymentId={p.id} /> : null}
    </Card>
  );
}

/** '/dashboard/admin/payments' (admins): the totals, the last reconciliation, every payment with its ledger trail. */
export function AdminPaymentsPage() {
  const overview = useAdminPayments();
  return (
    <div className="space-y-6">
      <PageHeader title="Payments" description="Money held, released, refunded and paid out, from the ledger." />
      {overview.data ? (
        <>
          <TestModeNotice show={overview.data.test_mode} />
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {TOTALS.map(([key, label]) => (
              <Card key={key} className="p-4">
                <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
                <dd className="text-xl font-bold tabular-nums">{formatCents(overview.data.totals[key])}</dd>
              </Card>
            ))}
          </dl>
          <Reconciliation overview={overview.data} />
        </>
      ) : overview.isError ? (
        <QueryLoadError what="the payments" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div role="status">
          <span className="sr-only">Loading the payments...</span>
          <Skeleton className="h-24" />
        </div>
      )}
      <section aria-labelledby="admin-payments-list" className="space-y-3">
        <h2 id="admin-payments-list" className="text-xl font-semibold">
          Every payment
        </h2>
        <PaginatedList
          query={useAdminPaymentList()}
          what="the payments"
          empty="No payments yet."
          renderItem={(p) => <PaymentRow p={p} />}
        />
      </section>
    </div>
  );
}
