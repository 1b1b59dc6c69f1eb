import { z } from 'zod';
import { dollarsSchema, formatCents } from './money';

export { dollarsSchema };
import { ledgerTrailSchema } from './payments';

/**
 * When a delivery goes wrong (issue 36, docs/payments.md "Disputes", decision 032): 'Report a problem' on a paid
 * booking's page, one response by the other person, and one moderator's decision posted to the ledger with the money
 * it moves. While the money is still held, an open dispute puts it 'On hold': the booking can be neither completed
 * nor cancelled until a moderator decides. After completion, a requester's 'Damaged' or 'Not delivered' report is a
 * Delivery Guarantee claim with the item's value.
 */

export const DISPUTE_REASONS = {
  not_delivered: 'Not delivered',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  other: 'Other',
} as const;
export type DisputeReason = keyof typeof DISPUTE_REASONS;
export const DISPUTE_REASON_CODES = Object.keys(DISPUTE_REASONS) as [DisputeReason, ...DisputeReason[]];
/** The reasons a requester may claim the Delivery Guarantee for, after completion. */
export const CLAIM_REASONS: readonly DisputeReason[] = ['not_delivered', 'damaged'];

export const DISPUTE_DETAILS_MAX = 2000;
export const DISPUTE_PHOTOS_MAX = 3;
/** 'Report a problem' stays open this long after completion. */
export const DISPUTE_WINDOW_HOURS = 48;
/** The Delivery Guarantee's cap per delivery (Free); Plus and Community members' is higher (the plans issue). */
export const GUARANTEE_CAP_CENTS = 5_000;
export const GUARANTEE_MEMBER_CAP_CENTS = 25_000;
/** The largest item value a claim may state (a typo's guard: the cap decides what is paid). */
export const ITEM_VALUE_MAX_CENTS = 10_000_000;

/**
 * hold: reported while the money was held (it stays held until the decision); claim: a Delivery Guarantee claim
 * after completion; report: any other problem reported after completion (no money moves; a moderator answers).
 */
export const DISPUTE_KINDS = ['hold', 'claim', 'report'] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];
export const DISPUTE_STATES = ['open', 'resolved'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];
export const DISPUTE_STATE_LABELS: Record<DisputeState, string> = { open: 'Open', resolved: 'Resolved' };

/** A moderator's decision: the first three for held money, the last two for a claim (or a report: 'decline'). */
export const DISPUTE_DECISIONS = ['release', 'refund', 'split', 'approve', 'decline'] as const;
export type DisputeDecision = (typeof DISPUTE_DECISIONS)[number];
export const DECISIONS_BY_KIND: Record<DisputeKind, readonly DisputeDecision[]> = {
  hold: ['release', 'refund', 'split'],
  claim: ['approve', 'decline'],
  report: ['decline'],
};
/** The moderator's buttons. */
export const DECISION_BUTTON_LABELS: Record<DisputeDecision, string> = {
  release: 'Release to driver',
  refund: 'Refund requester',
  split: 'Split',
  approve: 'Approve claim',
  decline: 'Decline',
};
export const DISPUTE_NOTE_MAX = 2000;

/** The words people see. */
export const REPORT_PROBLEM_LABEL = 'Report a problem';
export const DISPUTE_REASON_LABEL = 'What happened';
export const DISPUTE_DETAILS_LABEL = 'Details';
export const DISPUTE_PHOTOS_LABEL = 'Photos';
export const ITEM_VALUE_LABEL = 'Item value';
export const DISPUTE_RESPONSE_LABEL = 'Response';
export const DISPUTE_REPORTED_TOAST = 'Problem reported. We will get back to you within 2 days.';
export const DISPUTE_RESPONDED_TOAST = 'Response sent.';
export const DISPUTE_DECIDED_TOAST = 'Decision recorded.';
export const PAYMENT_ON_HOLD_LABEL = 'On hold';
export const WAITING_FOR_FUNDS_LABEL = 'Waiting for funds';
export const DISPUTE_HOLD_NOTICE =
  'The payment is on hold: nothing is released or refunded until RuralRoute decides. The booking cannot be completed or cancelled meanwhile.';

/** The decision as both people read it on the booking page (and in the notice). */
export function decisionText(d: {
  decision: DisputeDecision;
  refund_cents: number | null;
  approved_cents: number | null;
  released_cents: number | null;
}): string {
  switch (d.decision) {
    case 'release':
      return `Released to the driver${d.released_cents !== null ? `: ${formatCents(d.released_cents)}` : ''}.`;
    case 'refund':
      return `Refunded to the requester${d.refund_cents !== null ? `: ${formatCents(d.refund_cents)}` : ''}.`;
    case 'split':
      return `Split: ${formatCents(d.refund_cents ?? 0)} refunded to the requester, ${formatCents(d.released_cents ?? 0)} released.`;
    case 'approve':
      return `Claim approved: ${formatCents(d.approved_cents ?? 0)}.`;
    case 'decline':
      return 'Declined.';
  }
}

/** Refusals (toast title / description), by the server's stable code. */
export const DISPUTE_ERRORS = {
  dispute_not_allowed: {
    title: 'Error',
    message: `A problem can be reported on a paid booking from pickup until ${DISPUTE_WINDOW_HOURS} hours after the delivery.`,
  },
  dispute_open: { title: 'Error', message: 'A problem is already reported for this booking.' },
  dispute_on_hold: {
    title: 'Error',
    message: 'A reported problem holds this booking until RuralRoute decides. It cannot be completed or cancelled now.',
  },
  dispute_already_decided: { title: 'Error', message: 'This dispute has already been decided.' },
  dispute_response_not_allowed: {
    title: 'Error',
    message: 'Only the other person may respond, once, while the dispute is open.',
  },
  chargeback_on_hold: {
    title: 'Error',
    message:
      'The requester’s bank is reviewing a card dispute of this payment. Nothing can be completed, cancelled or decided until it has closed.',
  },
} as const;

export const disputeReasonSchema = z.enum(DISPUTE_REASON_CODES, { error: 'Choose what happened' });
export const DETAILS_REQUIRED_MESSAGE = 'Describe what happened';
export const DETAILS_TOO_LONG_MESSAGE = `At most ${DISPUTE_DETAILS_MAX.toLocaleString('en-US')} characters`;
export const TOO_MANY_PHOTOS_MESSAGE = `Add at most ${DISPUTE_PHOTOS_MAX} photos`;
export const ITEM_VALUE_MESSAGE = 'Enter the item’s value in dollars, for example 35.00';
export const NOTE_REQUIRED_MESSAGE = 'Write a note for both people';
export const SPLIT_AMOUNT_MESSAGE = 'Enter an amount between $0.01 and the total less $0.01';
export const APPROVED_AMOUNT_MESSAGE = 'Enter an amount up to the cap and the item’s value';

const detailsSchema = z
  .string({ error: DETAILS_REQUIRED_MESSAGE })
  .trim()
  .min(1, DETAILS_REQUIRED_MESSAGE)
  .max(DISPUTE_DETAILS_MAX, DETAILS_TOO_LONG_MESSAGE);

/** The report form's fields besides the photos (multipart `reason`, `details`, `item_value`; `photos` repeated). */
export const disputeReportSchema = z.object({
  reason: disputeReasonSchema,
  details: detailsSchema,
  /** Dollars; required for a Delivery Guarantee claim, ignored otherwise. */
  item_value: z.string().max(20).optional(),
});
export type DisputeReportInput = z.input<typeof disputeReportSchema>;

/** The other person's one response (multipart `details`, `photos` repeated). */
export const disputeResponseSchema = z.object({ details: detailsSchema });

/** A moderator's decision (`POST /api/admin/disputes/:id/decision`). Amounts in dollars, as typed. */
export const disputeDecisionSchema = z.object({
  decision: z.enum(DISPUTE_DECISIONS, { error: 'Choose a decision' }),
  note: z
    .string({ error: NOTE_REQUIRED_MESSAGE })
    .trim()
    .min(1, NOTE_REQUIRED_MESSAGE)
    .max(DISPUTE_NOTE_MAX, `At most ${DISPUTE_NOTE_MAX.toLocaleString('en-US')} characters`),
  /** split: what goes back to the requester; approve: what the guarantee pays. */
  amount: z.string().max(20).optional(),
});
export type DisputeDecisionInput = z.input<typeof disputeDecisionSchema>;

const person = z.object({ id: z.string().uuid(), full_name: z.string() });
const photoRef = z.object({ id: z.string().uuid(), url: z.string() });

/** A dispute as the booking's two people (and moderators) see it. */
export const disputeViewSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(DISPUTE_KINDS),
  state: z.enum(DISPUTE_STATES),
  reason: disputeReasonSchema,
  details: z.string(),
  /** A claim's stated value. */
  item_value_cents: z.number().int().nullable(),
  created_at: z.string(),
  reporter: person.extend({ role: z.enum(['driver', 'requester']) }),
  photos: z.array(photoRef),
  response: z
    .object({ author: person, details: z.string(), created_at: z.string(), photos: z.array(photoRef) })
    .nullable(),
  decision: z
    .object({
      decision: z.enum(DISPUTE_DECISIONS),
      note: z.string(),
      refund_cents: z.number().int().nullable(),
      released_cents: z.number().int().nullable(),
      approved_cents: z.number().int().nullable(),
      /** An approved claim the reserve could not pay yet. */
      waiting_for_funds: z.boolean(),
      decided_at: z.string(),
    })
    .nullable(),
  /** The viewer may add the one response now. */
  can_respond: z.boolean(),
});
export type DisputeView = z.infer<typeof disputeViewSchema>;

/** `GET /api/admin/disputes` (open, oldest first; `state=resolved`: newest first). */
export const adminDisputeSchema = disputeViewSchema.extend({
  booking: z.object({
    id: z.string().uuid(),
    status: z.string(),
    title: z.string(),
    picked_up_at: z.string().nullable(),
    ended_at: z.string().nullable(),
  }),
  driver: person.extend({ email: z.string() }),
  requester: person.extend({ email: z.string() }),
  payment: z
    .object({
      state: z.string(),
      compensation_cents: z.number().int(),
      fee_cents: z.number().int(),
      total_cents: z.number().int(),
      refunded_cents: z.number().int(),
      /** A card dispute of it is open or was decided for the cardholder: shown 'Chargeback'; no decision moves its money. */
      chargeback: z.boolean(),
    })
    .nullable(),
  /** The guarantee's cap for this requester, and what approving may pay at most (min of cap and item value). */
  claim_cap_cents: z.number().int().nullable(),
  events: z.array(z.object({ type: z.string(), at: z.string(), actor_name: z.string().nullable() })),
  messages: z.array(z.object({ sender_name: z.string(), body: z.string(), at: z.string() })),
  /** The payment's ledger trail, as the payments page shows it. */
  ledger: ledgerTrailSchema,
  decided_by: person.nullable(),
});
export type AdminDispute = z.infer<typeof adminDisputeSchema>;
export const adminDisputeQuerySchema = z.object({ state: z.enum(DISPUTE_STATES).default('open') });
