import type * as React from 'react';
import { formatCents } from '@shared/money';
import {
  CHARGEBACK_FINAL_STATUSES,
  CHARGEBACK_OUTCOMES,
  chargebackStatusLabel,
  type AdminChargeback,
  type ChargebackOutcome,
} from '@shared/payments';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { useCloseTestChargeback } from '../api/payments';

const CLOSE_LABELS: Record<ChargebackOutcome, string> = { won: 'Close as won', lost: 'Close as lost' };

/** What closing the test bank's dispute does, in words. */
function closeConsequence(c: AdminChargeback, outcome: ChargebackOutcome): string {
  const amount = formatCents(c.amount_cents);
  if (outcome === 'won')
    return `The test bank decides for RuralRoute: ${amount} and the fee come back${c.on_hold ? ' and the hold on the booking is lifted' : ''}.`;
  return `The test bank decides for ${c.requester_name}: ${amount} and the fee stay lost${c.on_hold ? ', the held money covers the loss and the booking is cancelled' : ''}.`;
}

/** The bank's reason as the provider names it ('product_not_received') -> 'Product not received'. */
export function chargebackReason(reason: string): string {
  const words = reason.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Not given';
}

const isClosed = (c: AdminChargeback) =>
  c.closed_at !== null || (CHARGEBACK_FINAL_STATUSES as readonly string[]).includes(c.status);

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="text-muted-foreground">{term}:</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * One card dispute (admins' 'Card disputes'): what it cost, what the driver received of the payment (released money
 * is not taken back automatically: a person decides) and, for the test bank's, 'Close as won' / 'Close as lost'.
 */
export function ChargebackCard({ c }: { c: AdminChargeback }) {
  const close = useCloseTestChargeback();
  const headingId = `chargeback-${c.id}`;
  return (
    <Card className="p-4">
      <article aria-labelledby={headingId} className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 id={headingId} className="break-words font-semibold">
              {c.title}
            </h3>
            <p className="text-sm text-muted-foreground">
              {c.requester_name} (requester) · {c.driver_name} (driver)
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Badge
              tone={c.status === 'lost' ? 'red' : c.status === 'won' ? 'green' : isClosed(c) ? 'neutral' : 'yellow'}
            >
              {chargebackStatusLabel(c.status)}
            </Badge>
            {c.on_hold ? <Badge tone="blue">Holds the booking</Badge> : null}
          </div>
        </div>
        <dl className="grid gap-1 text-sm sm:grid-cols-2">
          <Item term="The bank's reason">{chargebackReason(c.reason)}</Item>
          <Item term="Amount">{formatCents(c.amount_cents)}</Item>
          <Item term="Fee">{formatCents(c.fee_cents)}</Item>
          <Item term="Lost">{formatCents(c.lost_cents)}</Item>
          <Item term="Opened">
            <time dateTime={c.opened_at}>{formatInstant(c.opened_at)}</time>
          </Item>
          {c.closed_at ? (
            <Item term="Closed">
              <time dateTime={c.closed_at}>{formatInstant(c.closed_at)}</time>
            </Item>
          ) : null}
        </dl>
        {c.driver_received_cents > 0 ? (
          <p className="text-sm">
            Released to {c.driver_name}: {formatCents(c.driver_received_cents)}. Not taken back automatically. Available
            balance now: {formatCents(c.driver_available_cents)}.
          </p>
        ) : null}
        {c.test_mode && !isClosed(c) ? (
          <div className="flex flex-wrap gap-2">
            {CHARGEBACK_OUTCOMES.map((outcome) => (
              <ConfirmActionButton
                key={outcome}
                variant="outline"
                label={`${CLOSE_LABELS[outcome]}: ${c.title}`}
                disabled={close.isPending}
                title={`${CLOSE_LABELS[outcome]}?`}
                description={`${closeConsequence(c, outcome)} This is the test bank: no real money moves.`}
                confirmLabel={CLOSE_LABELS[outcome]}
                busyLabel="Closing..."
                destructive={outcome === 'lost'}
                onConfirm={() => close.mutateAsync({ id: c.id, outcome })}
              >
                {CLOSE_LABELS[outcome]}
              </ConfirmActionButton>
            ))}
          </div>
        ) : null}
      </article>
    </Card>
  );
}
