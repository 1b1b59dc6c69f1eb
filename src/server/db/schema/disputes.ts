import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PHOTO_MAX_BYTES } from '../../../shared/lifecycle';
import {
  DISPUTE_DECISIONS,
  DISPUTE_DETAILS_MAX,
  DISPUTE_KINDS,
  DISPUTE_NOTE_MAX,
  DISPUTE_PHOTOS_MAX,
  DISPUTE_REASON_CODES,
  DISPUTE_STATES,
} from '../../../shared/disputes';
import { users } from './accounts';
import { lengthBetween, oneOf } from './checks';
import { bookings, bytea, PHOTO_MAX_SIDE } from './marketplace';

// ─── Disputes and the Delivery Guarantee (issue 36, decision 032) ──────────────────────────────────────────────

/**
 * One 'Report a problem'. A dispute of kind 'hold' is the booking's `on_hold_dispute_id` while open (the booking's own
 * row holds it, so its guarded moves see it); its decision is written once, by `UPDATE ... WHERE state = 'open'`.
 */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** The booking's payment (no foreign key: money records outlive what caused them, as payments do). */
    paymentId: uuid('payment_id').notNull(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reporterRole: text('reporter_role').notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    details: text('details').notNull(),
    itemValueCents: bigint('item_value_cents', { mode: 'number' }),
    /**
     * A claim's cap, fixed when it is made (issue 38): the Delivery Guarantee's $50, or $250 for a requester on Plus or
     * Community then (a plan that ends later does not lower it).
     */
    claimCapCents: bigint('claim_cap_cents', { mode: 'number' }),
    state: text('state').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    decision: text('decision'),
    note: text('note'),
    /** split, refund: what went back to the requester; release, split: what the driver received. */
    refundCents: bigint('refund_cents', { mode: 'number' }),
    releasedCents: bigint('released_cents', { mode: 'number' }),
    /** approve: what the guarantee pays. */
    approvedCents: bigint('approved_cents', { mode: 'number' }),
    /** approve: when the reserve paid it (null while 'Waiting for funds'). */
    paidAt: timestamp('paid_at', { withTimezone: true, precision: 3 }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // One open dispute per booking.
    uniqueIndex('disputes_booking_open_key')
      .on(t.bookingId)
      .where(sql`${t.state} = 'open'`),
    index('disputes_booking_idx').on(t.bookingId, t.createdAt),
    // The moderators' queue: open ones oldest first; resolved ones newest first.
    index('disputes_state_created_idx').on(t.state, t.createdAt, t.id),
    check('disputes_reporter_role_check', oneOf(t.reporterRole, ['driver', 'requester'])),
    check('disputes_kind_check', oneOf(t.kind, DISPUTE_KINDS)),
    check('disputes_reason_check', oneOf(t.reason, DISPUTE_REASON_CODES)),
    check('disputes_details_length', lengthBetween(t.details, DISPUTE_DETAILS_MAX)),
    check('disputes_state_check', oneOf(t.state, DISPUTE_STATES)),
    check('disputes_decision_check', oneOf(t.decision, DISPUTE_DECISIONS)),
    check('disputes_note_length', lengthBetween(t.note, DISPUTE_NOTE_MAX)),
    check(
      'disputes_decided',
      sql`(${t.state} = 'open') = (${t.decision} is null and ${t.note} is null and ${t.decidedAt} is null)`,
    ),
    check('disputes_claim_value', sql`(${t.kind} = 'claim') = (${t.itemValueCents} is not null)`),
    check('disputes_claim_cap', sql`(${t.kind} = 'claim') = (${t.claimCapCents} is not null)`),
    check('disputes_item_value', sql`${t.itemValueCents} is null or ${t.itemValueCents} > 0`),
    check(
      'disputes_amounts',
      sql`coalesce(${t.refundCents}, 0) >= 0 and coalesce(${t.releasedCents}, 0) >= 0 and coalesce(${t.approvedCents}, 0) >= 0`,
    ),
  ],
);

/** The other person's one response. */
export const disputeResponses = pgTable(
  'dispute_responses',
  {
    disputeId: uuid('dispute_id')
      .primaryKey()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    details: text('details').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [check('dispute_responses_details_length', lengthBetween(t.details, DISPUTE_DETAILS_MAX))],
);

/** Up to 3 photos per side, re-encoded as the handoff photo is (bookings/photo.ts). */
export const disputePhotos = pgTable(
  'dispute_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    image: bytea('image').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dispute_photos_author_position_key').on(t.disputeId, t.authorId, t.position),
    check('dispute_photos_position', sql`${t.position} between 0 and ${sql.raw(String(DISPUTE_PHOTOS_MAX - 1))}`),
    check('dispute_photos_size', sql`octet_length(${t.image}) between 1 and ${sql.raw(String(PHOTO_MAX_BYTES))}`),
    check('dispute_photos_width', sql`${t.width} between 1 and ${sql.raw(String(PHOTO_MAX_SIDE))}`),
    check('dispute_photos_height', sql`${t.height} between 1 and ${sql.raw(String(PHOTO_MAX_SIDE))}`),
  ],
);
