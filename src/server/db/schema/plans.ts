import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LIMITS } from '../../../shared/limits';
import { MAX_RIDE_STOPS, PAID_PLANS, PLAN_STATUSES } from '../../../shared/plans';
import { lengthBetween, oneOf } from './checks';
import { users } from './accounts';
import { placeColumns, rides } from './marketplace';

// ─── Paid plans (issue 38, docs/plans.md) ────────────────────────────────────────────────────────────────────────

export const PLAN_CHARGE_KINDS = ['subscribe', 'renewal', 'switch'] as const;
export const PLAN_CHARGE_STATES = ['pending', 'paid', 'failed'] as const;

/**
 * A member's paid plan: one row per member who ever subscribed. 'active' until the end of the paid period (renewed by
 * the plans sweep unless `cancel_at_period_end`); 'past_due' after a failed renewal, keeping the plan until
 * `grace_until`; 'canceled' is Free again. The card the renewals charge is the provider's (a payment method id).
 */
export const planSubscriptions = pgTable(
  'plan_subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    status: text('status').notNull(),
    /** What the current period cost (the plan's price when it was paid): what a switch prorates. */
    periodPriceCents: bigint('period_price_cents', { mode: 'number' }).notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, precision: 3 }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, precision: 3 }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    graceUntil: timestamp('grace_until', { withTimezone: true, precision: 3 }),
    provider: text('provider').notNull(),
    /** The card renewals charge (the test provider's or Stripe's payment method), and what a receipt names. */
    paymentMethodId: text('payment_method_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** Stripe Billing: its customer and subscription. */
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check('plan_subscriptions_plan_check', oneOf(t.plan, PAID_PLANS)),
    check('plan_subscriptions_status_check', oneOf(t.status, PLAN_STATUSES)),
    check('plan_subscriptions_period', sql`${t.currentPeriodEnd} > ${t.currentPeriodStart}`),
    check('plan_subscriptions_grace', sql`(${t.status} = 'past_due') = (${t.graceUntil} is not null)`),
    check('plan_subscriptions_price', sql`${t.periodPriceCents} >= 0`),
    // The plans sweep: periods that end, graces that run out.
    index('plan_subscriptions_due_idx')
      .on(t.currentPeriodEnd)
      .where(sql`${t.status} = 'active'`),
    index('plan_subscriptions_grace_idx')
      .on(t.graceUntil)
      .where(sql`${t.status} = 'past_due'`),
    uniqueIndex('plan_subscriptions_provider_subscription_key')
      .on(t.providerSubscriptionId)
      .where(sql`${t.providerSubscriptionId} is not null`),
  ],
);

/**
 * Every charge of a plan (the first, each renewal, each switch): the 'Paid' tab's rows and their receipts. A charge is
 * claimed 'pending' (one per member at a time), the card charged under `plan_charge:<id>`, then 'paid' with its
 * ledger transaction in the transaction that moves the plan; 'failed' when the card is declined.
 */
export const planCharges = pgTable(
  'plan_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    plan: text('plan').notNull(),
    kind: text('kind').notNull(),
    state: text('state').notNull().default('pending'),
    /** The plan's price for the period. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** A switch: the unused time of the plan it replaces, credited towards this charge. */
    prorationCents: bigint('proration_cents', { mode: 'number' }).notNull().default(0),
    /** The member's RuralRoute credit spent on it (after the proration), before the card. */
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    /** What the card paid. */
    cardCents: bigint('card_cents', { mode: 'number' }).notNull().default(0),
    periodStart: timestamp('period_start', { withTimezone: true, precision: 3 }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, precision: 3 }).notNull(),
    provider: text('provider').notNull(),
    providerChargeId: text('provider_charge_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    check('plan_charges_plan_check', oneOf(t.plan, PAID_PLANS)),
    check('plan_charges_kind_check', oneOf(t.kind, PLAN_CHARGE_KINDS)),
    check('plan_charges_state_check', oneOf(t.state, PLAN_CHARGE_STATES)),
    check(
      'plan_charges_amounts',
      sql`${t.amountCents} >= 0 and ${t.prorationCents} >= 0 and ${t.creditCents} >= 0 and ${t.cardCents} >= 0`,
    ),
    check('plan_charges_paid_at', sql`(${t.state} = 'paid') = (${t.paidAt} is not null)`),
    // One charge in progress per member: two tabs subscribing at once charge once.
    uniqueIndex('plan_charges_pending_key')
      .on(t.userId)
      .where(sql`${t.state} = 'pending'`),
    // The 'Paid' tab, newest first.
    index('plan_charges_user_idx').on(t.userId, t.createdAt, t.id),
    index('plan_charges_provider_charge_idx')
      .on(t.provider, t.providerChargeId)
      .where(sql`${t.providerChargeId} is not null`),
  ],
);

/**
 * Advanced route planning: a Plus or Community driver's stops between a ride's origin and destination (up to
 * MAX_RIDE_STOPS, in order), each a place like the ride's ends. Along-the-route matching follows each leg.
 */
export const rideStops = pgTable(
  'ride_stops',
  {
    rideId: uuid('ride_id')
      .notNull()
      .references(() => rides.id, { onDelete: 'cascade' }),
    /** 1 .. MAX_RIDE_STOPS, from the origin. */
    position: smallint('position').notNull(),
    label: text('label').notNull(),
    ...placeColumns('stop'),
  },
  (t) => [
    primaryKey({ columns: [t.rideId, t.position] }),
    check('ride_stops_position', sql`${t.position} between 1 and ${sql.raw(String(MAX_RIDE_STOPS))}`),
    check('ride_stops_label_length', lengthBetween(t.label, LIMITS.locationMax)),
    check(
      'ride_stops_place',
      sql`(${t.stopPlaceId} is null) = (${t.stopLat} is null) and (${t.stopLat} is null) = (${t.stopLon} is null)`,
    ),
  ],
);
