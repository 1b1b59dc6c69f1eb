import { useState } from 'react';
import type * as React from 'react';
import { formatCents } from '@shared/money';
import {
  paymentStateLabel,
  TEST_CHARGEBACK_FEE_CENTS,
  type AdminPaymentItem,
  type AdminPayments,
} from '@shared/payments';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { QueryLoadError } from '@/components/query-load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatInstant } from '@/lib/format';
import {
  useAdminChargebacks,
  useAdminPaymentList,
  useAdminPayments,
  useLedgerTrail,
  useRaiseTestChargeback,
  useReconcile,
} from '../api/payments';
import { ChargebackCard } from './chargeback-card';
import { LedgerTable } from './ledger-table';
import { ReserveFundForm } from './reserve-fund-form';
import { TestModeNotice } from '@/components/test-mode-notice';

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
  ['chargeback_losses_cents', 'Chargeback losses'],
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

/** The test provider's bank may dispute a card payment not disputed and not refunded in full. */
const disputable = (p: AdminPaymentItem) =>
  !p.chargeback && p.state !== 'refunded' && p.total_cents - p.credit_cents > 0;

/** 'Raise a test chargeback': the test bank opens a card dispute of this payment, as a cardholder's bank would. */
function RaiseChargeback({ p }: { p: AdminPaymentItem }) {
  const raise = useRaiseTestChargeback();
  return (
    <ConfirmActionButton
      variant="outline"
      label={`Raise a test chargeback: ${p.title}`}
      disabled={raise.isPending}
      title="Raise a test chargeback?"
      description={`The test bank opens a card dispute of ${p.requester_name}'s card payment for ${p.title}, as their bank would. The disputed amount and the bank's ${formatCents(TEST_CHARGEBACK_FEE_CENTS)} fee are withdrawn from RuralRoute, and money still held for the booking stays held until you close it. This is the test bank: no real money moves.`}
      confirmLabel="Raise a test chargeback"
      busyLabel="Raising..."
      destructive
      onConfirm={() => raise.mutateAsync(p.id)}
    >
      Raise a test chargeback
    </ConfirmActionButton>
  );
}

function PaymentRow({ p, testMode }: { p: AdminPaymentItem; testMode: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Card className="space-y-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-words font-semibold">{p.title}</p>
          <p className="text-sm text-muted-foreground">
            <time dateTime={p.paid_at}>{formatInstant(p.paid_at)}</time> · {p.requester_name} paid{' '}
            {formatCents(p.total_cents)} for {p.driver_name} ·{' '}
            {paymentStateLabel(p.state, formatCents(p.refunded_cents), p.chargeback)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {testMode && disputable(p) ? <RaiseChargeback p={p} /> : null}
          <Button
            variant="outline"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            aria-label={`Ledger trail of ${p.title}`}
          >
            {open ? 'Hide ledger trail' : 'Ledger trail'}
          </Button>
        </div>
      </div>
      {open ? <Trail paymentId={p.id} /> : null}
    </Card>
  );
}

/** A titled keyset list of the page ('Every payment', 'Card disputes'). */
function ListSection<T extends { id: string }>({
  id,
  title,
  ...list
}: { id: string; title: string } & React.ComponentProps<typeof PaginatedList<T>>) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <PaginatedList {...list} />
    </section>
  );
}

/**
 * '/dashboard/admin/payments' (admins): the totals, the last reconciliation, 'Add to the reserve', every payment with
 * its ledger trail (and in test mode 'Raise a test chargeback'), and every card dispute.
 */
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
          <ReserveFundForm />
        </>
      ) : overview.isError ? (
        <QueryLoadError what="the payments" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div role="status">
          <span className="sr-only">Loading the payments...</span>
          <Skeleton className="h-24" />
        </div>
      )}
      <ListSection
        id="admin-payments-list"
        title="Every payment"
        query={useAdminPaymentList()}
        what="the payments"
        empty="No payments yet."
        renderItem={(p) => <PaymentRow p={p} testMode={overview.data?.test_mode ?? false} />}
      />
      <ListSection
        id="admin-chargebacks"
        title="Card disputes"
        query={useAdminChargebacks()}
        what="the card disputes"
        empty="No card disputes."
        renderItem={(c) => <ChargebackCard c={c} />}
      />
    </div>
  );
}
