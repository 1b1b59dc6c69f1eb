import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { paymentWebhookEvents, payoutAccounts } from '../db/schema';
import type { JobHandler } from '../jobs';
import { enqueuePayoutRun } from './payouts';
import { applyChargebackEvent, isChargebackEvent, type EndHeldBooking } from './chargebacks';
import { PAYMENT_WEBHOOK_JOB, storeEvent } from './webhook-events';

export { PAYMENT_WEBHOOK_JOB };
import type { PaymentsProvider } from './provider';

/**
 * Stripe's webhooks (docs/payments.md, 'Stripe'): the route checks the signature over the raw body, stores the event
 * once by its id and, in the same transaction, enqueues the job that applies it; it answers 200 at once, so Stripe
 * never times out waiting for our work and every retry of a delivery is recognised by the event id. The job applies
 * what RuralRoute listens to (account.updated: a driver's payouts becoming active or not; charge.dispute.*: card
 * disputes, chargebacks.ts; through `others`, plans on Stripe Billing: plans/stripe-billing.ts) and marks the event
 * processed; any other type is stored and marked processed without effect.
 */

/**
 * Where Stripe delivers events, as the app serves it (webhook-routes.ts): exempt from the Origin check and the
 * session (app-middleware.ts): Stripe sends neither, and the signature is the request's only authority.
 */
export const STRIPE_WEBHOOK_PATH = '/api/payments/webhooks/stripe';

export const WEBHOOK_SIGNATURE_MESSAGE = 'The webhook signature is missing or does not match.';
export const WEBHOOK_EVENT_MESSAGE = 'The webhook body is not a Stripe event.';

/** What every event has; the rest is kept as it came. */
const eventSchema = z.object({ id: z.string().min(1).max(255), type: z.string().min(1).max(255) });

/**
 * One delivery, as the route received it: the signature checked over the raw body (exactly the bytes sent: nothing
 * may parse it first), then the event stored once by its id and its job enqueued in the same transaction. A second
 * delivery of the same event stores nothing and enqueues nothing. Throws invalid_signature, malformed_json (signed,
 * yet not JSON) or validation_error (not an event); nothing is stored then.
 */
export function createStripeEventReceiver(db: Db, { stripe, secret }: { stripe: Stripe; secret: string }) {
  return async function receive(raw: string, signature: string | undefined): Promise<void> {
    let parsed: unknown;
    try {
      parsed = stripe.webhooks.constructEvent(raw, signature ?? '', secret);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError)
        throw new DomainError('invalid_signature', WEBHOOK_SIGNATURE_MESSAGE);
      // constructEvent parses the body only after the signature matched.
      if (err instanceof SyntaxError) throw new DomainError('malformed_json', 'The request body is not valid JSON.');
      throw err;
    }
    const event = eventSchema.safeParse(parsed);
    if (!event.success) throw new DomainError('validation_error', WEBHOOK_EVENT_MESSAGE);
    const { id, type } = event.data;
    await db.transaction((tx) => storeEvent(tx, { id, provider: 'stripe', type, payload: parsed }));
  };
}

export type StripeEventReceiver = ReturnType<typeof createStripeEventReceiver>;

/**
 * Another part's handling of an event: the provider calls it needs made first (outside any transaction), then
 * `apply` in the transaction that marks the event processed, then `after` (calls that follow from it); undefined
 * when the event is not theirs.
 */
export type OtherEvents = (
  type: string,
  payload: unknown,
) => Promise<{ apply: (tx: Db) => Promise<void>; after: () => Promise<void> } | undefined>;

/** The connected account an account.updated event is about. */
const accountEventSchema = z.object({ data: z.object({ object: z.object({ id: z.string().min(1) }) }) });

/**
 * The job that applies one stored event, once: a second run (a retry, a job whose worker died) finds it processed.
 *
 * account.updated: the account's payouts_enabled, asked of Stripe when the job runs rather than read from the
 * event, because Stripe does not deliver events in order and retries a failed delivery for days: an old event may
 * arrive after a newer one, and only the account as it is now is right. Payouts becoming active set the
 * driver's payout account 'active' and, in the same transaction, enqueue the payout run of their Available balance;
 * no longer enabled sets it back to 'pending'. The UPDATE is guarded by the state it changes, so of two events (or
 * two runs) saying the same, one activates and enqueues one run.
 */
export function paymentWebhookHandler(
  db: Db,
  provider: PaymentsProvider,
  endHeldBooking: EndHeldBooking,
  /** Events other parts apply (plans on Stripe Billing: src/server/plans/stripe-billing.ts). */
  others?: OtherEvents,
): JobHandler {
  return async (payload) => {
    const { eventId } = payload as { eventId: string };
    const [event] = await db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, eventId));
    if (!event || event.processedAt) return;

    let apply: (tx: Db) => Promise<void> = async () => undefined;
    let after: () => Promise<void> = async () => undefined;
    const other = await others?.(event.type, event.payload);
    if (other) ({ apply, after } = other);
    if (isChargebackEvent(event.type))
      apply = (tx) => applyChargebackEvent(tx, event.provider, event.payload, endHeldBooking);
    if (event.type === 'account.updated') {
      const account = accountEventSchema.safeParse(event.payload);
      const accountId = account.success ? account.data.data.object.id : null;
      const [known] = accountId
        ? await db
            .select({ userId: payoutAccounts.userId })
            .from(payoutAccounts)
            .where(and(eq(payoutAccounts.provider, 'stripe'), eq(payoutAccounts.providerAccountId, accountId)))
        : [];
      // Not one of our drivers' accounts (or one whose driver left): nothing to change.
      if (accountId && known) {
        const status = await provider.payoutAccountStatus(accountId);
        apply = async (tx) => {
          const changed = await tx
            .update(payoutAccounts)
            .set({ status, updatedAt: sql`clock_timestamp()` })
            .where(
              and(
                eq(payoutAccounts.provider, 'stripe'),
                eq(payoutAccounts.providerAccountId, accountId),
                ne(payoutAccounts.status, status),
              ),
            )
            .returning({ userId: payoutAccounts.userId });
          if (status === 'active') for (const { userId } of changed) await enqueuePayoutRun(tx, userId);
        };
      }
    }

    await db.transaction(async (tx) => {
      // Claimed by its processed_at: of two runs at once, the second waits here and then finds nothing to do.
      const mine = await tx
        .update(paymentWebhookEvents)
        .set({ processedAt: sql`clock_timestamp()` })
        .where(and(eq(paymentWebhookEvents.id, eventId), isNull(paymentWebhookEvents.processedAt)))
        .returning({ id: paymentWebhookEvents.id });
      if (mine.length) await apply(tx);
    });
    await after();
  };
}
