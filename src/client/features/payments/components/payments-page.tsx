import { Link, useSearchParams } from '@/lib/router';
import { formatCents } from '@shared/money';
import { CHARGEBACK_LABEL, CREDIT_LABEL, paymentStateLabel, type EarnedItem, type PaidItem } from '@shared/payments';
import { bookingDetailPath, PAGE_PATHS, receiptPath } from '@shared/routes';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatInstant } from '@/lib/format';
import { useCredit, useEarnedPayments, useEarnings, usePaidPayments } from '../api/payments';
import { TestModeNotice } from '@/components/test-mode-notice';
import { PlanPayments } from '@/features/plans';

export const PAID_EMPTY_TEXT = 'You have not paid for a delivery yet.';
export const EARNED_EMPTY_TEXT = 'You have not earned anything yet. Deliveries you carry for pay show here.';

const TABS = ['paid', 'earned'] as const;
type Tab = (typeof TABS)[number];

/** One row of a payments list: what it was for (the booking's page), when, how much, its state. */
function PaymentRow({
  title,
  bookingId,
  at,
  amount,
  state,
  receiptId,
}: {
  title: string;
  bookingId: string;
  at: string;
  amount: string;
  state: string;
  receiptId: string;
}) {
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
      <div className="min-w-0">
        <Link to={bookingDetailPath(bookingId)} className="break-words font-semibold text-primary hover:underline">
          {title}
        </Link>
        <p className="text-sm text-muted-foreground">
          <time dateTime={at}>{formatInstant(at)}</time> · {state}
        </p>
      </div>
      <div className="flex items-center gap-4">
        <span className="text-lg font-semibold tabular-nums">{amount}</span>
        <Link
          to={receiptPath(receiptId)}
          className="rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
          aria-label={`Receipt for ${title}`}
        >
          Receipt
        </Link>
      </div>
    </Card>
  );
}

const paidRow = (p: PaidItem) => (
  <PaymentRow
    title={p.title}
    bookingId={p.booking_id}
    at={p.paid_at}
    amount={formatCents(p.total_cents)}
    state={paymentStateLabel(p.state, formatCents(p.refunded_cents), p.chargeback)}
    receiptId={p.id}
  />
);

const EARNED_STATE: Record<EarnedItem['state'], string> = {
  held: 'In progress',
  released: 'Earned',
  partly_refunded: 'Earned (cancelled after pickup)',
  refunded: 'Refunded to the requester',
};

const earnedRow = (e: EarnedItem) => (
  <PaymentRow
    title={e.title}
    bookingId={e.booking_id}
    at={e.at}
    amount={formatCents(e.amount_cents)}
    state={e.chargeback ? CHARGEBACK_LABEL : EARNED_STATE[e.state]}
    receiptId={e.id}
  />
);

function Totals() {
  const earnings = useEarnings();
  if (earnings.isPending)
    return (
      <div role="status" className="grid gap-4 sm:grid-cols-3">
        <span className="sr-only">Loading your earnings...</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
    );
  const e = earnings.data;
  if (!e) return null;
  const totals = [
    ['In progress', e.in_progress_cents, 'Held until your deliveries are complete'],
    ['Available', e.available_cents, e.payouts === 'active' ? 'Being paid out to your bank' : 'Waiting for a payout'],
    ['Paid out', e.paid_out_cents, 'Sent to your bank account'],
  ] as const;
  return (
    <div className="space-y-3">
      <dl className="grid gap-4 sm:grid-cols-3">
        {totals.map(([label, cents, hint]) => (
          <Card key={label} className="p-4">
            <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-bold tabular-nums">{formatCents(cents)}</dd>
            <dd className="text-sm text-muted-foreground">{hint}</dd>
          </Card>
        ))}
      </dl>
      {e.payouts !== 'active' ? (
        <p>
          To be paid what is Available,{' '}
          <Link to={`${PAGE_PATHS.settings}#payouts`} className="font-medium text-primary underline underline-offset-4">
            set up payouts
          </Link>
          . You can deliver before you do.
        </p>
      ) : null}
    </div>
  );
}

/** My RuralRoute credit, when I have some (an approved Delivery Guarantee claim beyond what I paid). */
function CreditBalance() {
  const balance = useCredit().data?.balance_cents;
  if (!balance) return null;
  return (
    <Card className="p-4">
      <p>
        {CREDIT_LABEL}: <strong>{formatCents(balance)}</strong>
      </p>
      <p className="text-sm text-muted-foreground">It pays your next deliveries before your card.</p>
    </Card>
  );
}

/** '/dashboard/payments': 'Paid' (what I paid, with receipts) and 'Earned' (totals, then each earning). */
export function PaymentsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'earned' ? 'earned' : 'paid';
  const testMode = useEarnings().data?.test_mode;
  return (
    <div className="space-y-4">
      <PageHeader title="Payments" />
      <TestModeNotice show={testMode} />
      <Tabs
        value={tab}
        onValueChange={(next) => setParams(next === 'earned' ? { tab: 'earned' } : {}, { replace: true })}
      >
        <TabsList className="max-w-md">
          {TABS.map((t) => (
            <TabsTrigger key={t} value={t}>
              {t === 'paid' ? 'Paid' : 'Earned'}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="paid" className="mt-4 space-y-4">
          <CreditBalance />
          <PaginatedList query={usePaidPayments()} what="your payments" empty={PAID_EMPTY_TEXT} renderItem={paidRow} />
          <PlanPayments />
        </TabsContent>
        <TabsContent value="earned" className="mt-4 space-y-6">
          <Totals />
          <PaginatedList
            query={useEarnedPayments()}
            what="your earnings"
            empty={EARNED_EMPTY_TEXT}
            renderItem={earnedRow}
          />
        </TabsContent>
      </Tabs>
    </div>
  );
}
