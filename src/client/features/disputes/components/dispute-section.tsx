import type * as React from 'react';
import {
  decisionText,
  DISPUTE_HOLD_NOTICE,
  DISPUTE_REASONS,
  DISPUTE_STATE_LABELS,
  ITEM_VALUE_LABEL,
  WAITING_FOR_FUNDS_LABEL,
  type DisputeView,
} from '@shared/disputes';
import type { BookingDetail } from '@shared/lifecycle';
import { formatCents } from '@shared/money';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { DisputeResponseButton } from './dispute-dialogs';
import { DisputeItem as Item, DisputeReport } from './dispute-report';

const ROLE_LABEL = { driver: 'Driver', requester: 'Requester' } as const;

/** 'Ada Field (Requester)', or 'You'. */
function who(person: { id: string; full_name: string }, role: string, myId: string): string {
  return person.id === myId ? 'You' : `${person.full_name} (${role})`;
}

/** The moderator's decision, as both people read it, with the note written to them. */
function Decision({ decision }: { decision: NonNullable<DisputeView['decision']> }) {
  return (
    <div className="space-y-1 rounded-md border p-3">
      <h3 className="font-semibold">RuralRoute&apos;s decision</h3>
      <p>{decisionText(decision)}</p>
      {decision.waiting_for_funds ? (
        <p className="font-medium">
          {WAITING_FOR_FUNDS_LABEL}: the claim is approved and will be paid as soon as the guarantee fund allows.
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground">Note from the moderator</p>
      <p className="whitespace-pre-wrap break-words">{decision.note}</p>
      <p className="text-sm text-muted-foreground">
        Decided <time dateTime={decision.decided_at}>{formatInstant(decision.decided_at)}</time>
      </p>
    </div>
  );
}

/**
 * 'Problem reported' on a booking page: what was reported, by whom and when, its details and photos, the other
 * person's response (or the 'Response' button while they may give it), and the moderator's decision once made.
 * While it holds the payment, the notice says nothing moves until RuralRoute decides.
 */
export function DisputeSection({
  booking,
  headingRef,
}: {
  booking: BookingDetail;
  /** Where focus goes after a report or a response is sent (the button pressed is gone). */
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const dispute = booking.dispute;
  if (!dispute) return null;
  const myId = booking[booking.my_role].id;
  const reporter = who(dispute.reporter, ROLE_LABEL[dispute.reporter.role], myId);
  return (
    <Card role="region" aria-labelledby="dispute-heading" className="border-amber-500/60">
      <CardHeader>
        <CardTitle id="dispute-heading" ref={headingRef} tabIndex={-1} className="rounded-sm focus:outline-none">
          Problem reported
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {dispute.kind === 'hold' && dispute.state === 'open' ? (
          <p className="rounded-md border border-amber-500/60 bg-amber-50 p-3 text-amber-950">{DISPUTE_HOLD_NOTICE}</p>
        ) : null}
        <DisputeReport
          dispute={dispute}
          responder={dispute.response?.author.id === myId ? 'you' : undefined}
          noResponse={
            dispute.state === 'open' ? (
              <p className="text-sm text-muted-foreground">
                {dispute.can_respond
                  ? 'You may give your side once. A moderator reads both before deciding.'
                  : 'No response yet. A moderator will look at this within 2 days.'}
              </p>
            ) : null
          }
        >
          <Item term="What happened">{DISPUTE_REASONS[dispute.reason]}</Item>
          <Item term="State">{DISPUTE_STATE_LABELS[dispute.state]}</Item>
          <Item term="Reported by">{reporter}</Item>
          <Item term="Reported">
            <time dateTime={dispute.created_at}>{formatInstant(dispute.created_at)}</time>
          </Item>
          {dispute.item_value_cents !== null ? (
            <Item term={ITEM_VALUE_LABEL}>{formatCents(dispute.item_value_cents)} (Delivery Guarantee claim)</Item>
          ) : null}
        </DisputeReport>
        {dispute.can_respond ? (
          <DisputeResponseButton
            bookingId={booking.id}
            reporterName={dispute.reporter.full_name}
            onDone={() => headingRef.current?.focus()}
          />
        ) : null}
        {dispute.decision ? <Decision decision={dispute.decision} /> : null}
      </CardContent>
    </Card>
  );
}
