import { z } from 'zod';
import { PAID_PLANS } from './plans';

// The plans API's shapes (issue 38). Apart from plans.ts so the public pages (pricing) never load zod.

/** Settings > Plan (GET /api/plan): the member's plan as they see it. */
export const planViewSchema = z.object({
  plan: z.enum(['free', ...PAID_PLANS]),
  /** null on Free. */
  status: z.enum(['active', 'past_due']).nullable(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  /** A failed renewal: the plan is kept until then ('Your payment failed. Update your card to keep Plus.'). */
  grace_until: z.string().nullable(),
  card: z.object({ brand: z.string().nullable(), last4: z.string() }).nullable(),
  /** What switching to the other paid plan now costs (an active plan only). */
  switch_quote: z
    .object({
      plan: z.enum(PAID_PLANS),
      price_cents: z.number().int(),
      /** The unused time of the current period, credited towards the new plan's price. */
      proration_cents: z.number().int(),
      credit_cents: z.number().int(),
      card_cents: z.number().int(),
      /** Unused time beyond the new price: it stays as RuralRoute credit. */
      credit_left_cents: z.number().int(),
    })
    .nullable(),
  credit_cents: z.number().int(),
  test_mode: z.boolean(),
  /** Whether plans can be bought with the payment setup that runs. */
  available: z.boolean(),
  /** Who charges the card: RuralRoute itself ('embedded', with the card fields) or Stripe Billing (its pages). */
  billing: z.enum(['embedded', 'stripe']),
});
export type PlanView = z.infer<typeof planViewSchema>;

export const planChoiceSchema = z.object({ plan: z.enum(PAID_PLANS) });

/** The 'Paid' tab's plan payments (GET /plan/charges): each paid charge with its receipt's lines. */
export const planChargeSchema = z.object({
  id: z.string(),
  plan: z.enum(PAID_PLANS),
  kind: z.enum(['subscribe', 'renewal', 'switch']),
  /** The plan's price for the period, and how it was paid: unused time, credit, card. */
  amount_cents: z.number().int(),
  proration_cents: z.number().int(),
  credit_cents: z.number().int(),
  card_cents: z.number().int(),
  /** 'Visa ending in 4242', or null when no card paid. */
  card: z.string().nullable(),
  period_start: z.string(),
  period_end: z.string(),
  paid_at: z.string(),
  test_mode: z.boolean(),
});
export type PlanCharge = z.infer<typeof planChargeSchema>;
