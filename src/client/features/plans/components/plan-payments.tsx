import { formatCents } from '@shared/money';
import { planName } from '@shared/plans';
import type { PlanCharge } from '@shared/plans-api';
import { PaginatedList } from '@/components/paginated-list';
import { Card } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { longDate, usePlanCharges } from '../api/plan';

const KIND_LABELS: Record<PlanCharge['kind'], string> = {
  subscribe: 'Subscribed',
  renewal: 'Renewed',
  switch: 'Switched plans',
};

/** One plan payment: what, when, how much; its receipt opens in place (a native disclosure, no script needed). */
function PlanPaymentRow({ charge }: { charge: PlanCharge }) {
  const name = planName(charge.plan);
  const lines: [string, string][] = [
    ['Plan', `RuralRoute ${name}`],
    ['Period', `${longDate(charge.period_start)} to ${longDate(charge.period_end)}`],
    ['Price', formatCents(charge.amount_cents)],
  ];
  if (charge.proration_cents > 0) lines.push(['Unused time credited', `-${formatCents(charge.proration_cents)}`]);
  if (charge.credit_cents > 0) lines.push(['RuralRoute credit', `-${formatCents(charge.credit_cents)}`]);
  lines.push(['Paid by card', formatCents(charge.card_cents)]);
  if (charge.card) lines.push(['Card', charge.card]);
  if (charge.test_mode) lines.push(['Note', 'Test mode: no real money moves.']);
  return (
    <Card className="space-y-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold">RuralRoute {name}</p>
          <p className="text-sm text-muted-foreground">
            <time dateTime={charge.paid_at}>{formatInstant(charge.paid_at)}</time> · {KIND_LABELS[charge.kind]}
          </p>
        </div>
        <span className="text-lg font-semibold tabular-nums">{formatCents(charge.card_cents)}</span>
      </div>
      <details>
        <summary className="cursor-pointer rounded-sm text-sm font-medium text-primary">
          Receipt
          <span className="sr-only">
            {' '}
            for RuralRoute {name}, {formatInstant(charge.paid_at)}
          </span>
        </summary>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {lines.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </details>
    </Card>
  );
}

/** The 'Paid' tab's plan payments (issue 38): every charge of a plan, with its receipt. */
export function PlanPayments() {
  return (
    <section aria-labelledby="plan-payments" className="space-y-3">
      <h2 id="plan-payments" className="text-lg font-semibold">
        Plan payments
      </h2>
      <PaginatedList
        query={usePlanCharges()}
        what="your plan payments"
        empty="You have not paid for a plan."
        renderItem={(charge) => <PlanPaymentRow charge={charge} />}
      />
    </section>
  );
}
