import type * as React from 'react';
import {
  decisionText,
  DISPUTE_REASONS,
  DISPUTE_STATE_LABELS,
  WAITING_FOR_FUNDS_LABEL,
  type AdminDispute,
  type DisputeKind,
} from '@shared/disputes';
import { formatCents } from '@shared/money';
import { PAYMENT_STATES, paymentStateLabel, type PaymentState } from '@shared/payments';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LedgerTable } from '@/features/payments';
import { capitalize, formatInstant } from '@/lib/format';
import { DecisionForm } from './decision-form';
import { DisputeItem as Item, DisputeReport, DisputeResponseBox } from './dispute-report';

const KIND_LABELS: Record<DisputeKind, string> = {
  hold: 'Payment on hold',
  claim: 'Delivery Guarantee claim',
  report: 'Report after delivery',
};
const ROLE_LABEL = { driver: 'Driver', requester: 'Requester' } as const;

/** The booking timeline's event types in words (as the booking page names them); anything newer as written. */
const EVENT_LABELS: Record<string, string> = {
  offered: 'Offered',
  chosen: 'Driver chosen',
  declined: 'Offer declined',
  withdrawn: 'Offer withdrawn',
  cancelled: 'Cancelled',
  picked_up: 'Picked up',
  completed: 'Delivered with the delivery code',
  received: 'Marked as received',
  other_chosen: 'Declined: another driver was chosen',
  request_withdrawn: 'Request withdrawn',
  resolved: 'Completed by RuralRoute’s decision',
};
const eventLabel = (type: string) => EVENT_LABELS[type] ?? capitalize(type.replaceAll('_', ' '));

const isPaymentState = (state: string): state is PaymentState => (PAYMENT_STATES as readonly string[]).includes(state);

function Person({ person }: { person: { full_name: string; email: string } }) {
  return (
    <>
      {person.full_name}
      <span className="block text-sm font-normal text-muted-foreground">{person.email}</span>
    </>
  );
}

/** A part of the card that may be long, folded until opened (a native disclosure: keyboard and readers know it). */
function Fold({ summary, children }: { summary: string; children: React.ReactNode }) {
  return (
    <details className="rounded-md border p-3">
      <summary className="cursor-pointer rounded-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {summary}
      </summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}

function Payment({ payment, onHold }: { payment: NonNullable<AdminDispute['payment']>; onHold: boolean }) {
  const state = isPaymentState(payment.state)
    ? paymentStateLabel(payment.state, formatCents(payment.refunded_cents), payment.chargeback)
    : capitalize(payment.state.replaceAll('_', ' '));
  return (
    <dl className="grid gap-4 sm:grid-cols-4">
      <Item term="Compensation">{formatCents(payment.compensation_cents)}</Item>
      <Item term="Service fee">{formatCents(payment.fee_cents)}</Item>
      <Item term="Total paid">{formatCents(payment.total_cents)}</Item>
      <Item term="Payment state">{onHold ? `${state} (on hold)` : state}</Item>
    </dl>
  );
}

/**
 * One dispute in the moderators' queue, with everything needed to decide it: the booking and both people,
 * who reported what and when, the details and photos, the response, the payment, the booking's timeline, its
 * messages and the payment's ledger trail; then the decision form while it is open, or the decision once made.
 */
export function AdminDisputeCard({ dispute, onDecided }: { dispute: AdminDispute; onDecided: () => void }) {
  const headingId = `dispute-${dispute.id}`;
  const { booking, decision } = dispute;
  const open = dispute.state === 'open';
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>
          {DISPUTE_REASONS[dispute.reason]}: {booking.title}
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {KIND_LABELS[dispute.kind]} · {DISPUTE_STATE_LABELS[dispute.state]}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <DisputeReport
          dispute={dispute}
          noResponse={
            <DisputeResponseBox heading="Response">
              <p className="text-muted-foreground">No response yet.</p>
            </DisputeResponseBox>
          }
        >
          {/* Named, not linked: the booking page answers only its driver and requester (a moderator gets its 404). */}
          <Item term="Booking">{booking.title}</Item>
          <Item term="Reported">
            <time dateTime={dispute.created_at}>{formatInstant(dispute.created_at)}</time>
          </Item>
          <Item term="Requester">
            <Person person={dispute.requester} />
          </Item>
          <Item term="Driver">
            <Person person={dispute.driver} />
          </Item>
          <Item term="Reported by">
            {dispute.reporter.full_name} ({ROLE_LABEL[dispute.reporter.role]})
          </Item>
          <Item term="What happened">{DISPUTE_REASONS[dispute.reason]}</Item>
          {dispute.item_value_cents !== null ? (
            <Item term="Item value">{formatCents(dispute.item_value_cents)}</Item>
          ) : null}
          {dispute.claim_cap_cents !== null ? (
            <Item term="Guarantee pays at most">{formatCents(dispute.claim_cap_cents)}</Item>
          ) : null}
        </DisputeReport>
        <section aria-labelledby={`${headingId}-payment`} className="space-y-2">
          <h3 id={`${headingId}-payment`} className="font-semibold">
            Payment
          </h3>
          {dispute.payment ? (
            <Payment payment={dispute.payment} onHold={open && dispute.kind === 'hold'} />
          ) : (
            <p className="text-muted-foreground">No payment.</p>
          )}
        </section>
        <Fold summary={`Timeline (${dispute.events.length})`}>
          <ol className="space-y-2">
            {dispute.events.map((event, i) => (
              <li key={`${event.type}-${event.at}-${i}`}>
                <span className="font-medium">{eventLabel(event.type)}</span>
                {event.actor_name ? ` by ${event.actor_name}` : ''} ·{' '}
                <time dateTime={event.at} className="text-sm text-muted-foreground">
                  {formatInstant(event.at)}
                </time>
              </li>
            ))}
          </ol>
        </Fold>
        <Fold summary={`Messages (${dispute.messages.length})`}>
          {dispute.messages.length ? (
            <ol className="space-y-3">
              {dispute.messages.map((message, i) => (
                <li key={`${message.at}-${i}`}>
                  <p className="text-sm">
                    <span className="font-medium">{message.sender_name}</span> ·{' '}
                    <time dateTime={message.at} className="text-muted-foreground">
                      {formatInstant(message.at)}
                    </time>
                  </p>
                  <p className="whitespace-pre-wrap break-words">{message.body}</p>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-muted-foreground">No messages.</p>
          )}
        </Fold>
        <Fold summary="Ledger trail">
          {dispute.ledger.transactions.length ? (
            <LedgerTable trail={dispute.ledger} caption={`Ledger trail of ${booking.title}`} />
          ) : (
            <p className="text-muted-foreground">No ledger moves.</p>
          )}
        </Fold>
        {decision ? (
          <div className="space-y-1 rounded-md border p-3">
            <h3 className="font-semibold">Decision</h3>
            <p>{decisionText(decision)}</p>
            {decision.waiting_for_funds ? <p className="font-medium">{WAITING_FOR_FUNDS_LABEL}</p> : null}
            <p className="text-sm text-muted-foreground">Note to both people</p>
            <p className="whitespace-pre-wrap break-words">{decision.note}</p>
            <p className="text-sm text-muted-foreground">
              Decided by {dispute.decided_by?.full_name ?? 'a moderator'} ·{' '}
              <time dateTime={decision.decided_at}>{formatInstant(decision.decided_at)}</time>
            </p>
          </div>
        ) : open ? (
          <DecisionForm dispute={dispute} onDecided={onDecided} />
        ) : null}
      </CardContent>
    </Card>
  );
}
