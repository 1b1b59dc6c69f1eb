import type { Db } from '../db/client';
import { paymentWebhookEvents } from '../db/schema';
import { enqueue } from '../jobs';

/** The job that applies one stored provider event (stripe-webhooks.ts, paymentWebhookHandler). */
export const PAYMENT_WEBHOOK_JOB = 'payment_webhook';

/**
 * Stores a provider's event once by its id and, in the same transaction, enqueues the job that applies it; a second
 * delivery stores nothing and enqueues nothing. Stripe's deliveries come through the route; the test provider's
 * raised card disputes (chargebacks.ts) through here too, so both are applied by the same job.
 */
export async function storeEvent(
  tx: Db,
  event: { id: string; provider: string; type: string; payload: unknown },
): Promise<boolean> {
  const stored = await tx
    .insert(paymentWebhookEvents)
    .values(event)
    .onConflictDoNothing({ target: paymentWebhookEvents.id })
    .returning({ id: paymentWebhookEvents.id });
  if (stored.length)
    await enqueue(tx, {
      kind: PAYMENT_WEBHOOK_JOB,
      payload: { eventId: event.id },
      dedupeKey: `webhook:${event.id}`,
    });
  return stored.length > 0;
}
