import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  type AnyPgColumn,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { MODERATION_ACTIONS, REPORT_DETAILS_MAX, REPORT_REASONS, REPORT_STATUSES } from '../../../shared/moderation';
import { lengthBetween, oneOf } from './checks';
import { users } from './accounts';
import { disputes } from './disputes';
import { bookings } from './marketplace';
import { reviews } from './reviews';
import { idChecks } from './verification';

// ─── Reporting, blocking and moderation ───────────────────────────────────────────────────────────────
/** `blocker` blocked `blocked`: symmetric in effect (neither reaches the other), one row per direction asked. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportedId: uuid('reported_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    /** The published review reported (its author is `reported_id`). */
    reviewId: uuid('review_id').references((): AnyPgColumn => reviews.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    details: text('details').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, precision: 3 }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The moderation queue: open reports, oldest first.
    index('reports_status_created_idx').on(t.status, t.createdAt, t.id),
    index('reports_reported_idx').on(t.reportedId),
    index('reports_reporter_idx').on(t.reporterId),
    check('reports_reason_check', oneOf(t.reason, Object.keys(REPORT_REASONS))),
    check('reports_details_length', lengthBetween(t.details, REPORT_DETAILS_MAX)),
    check('reports_status_check', oneOf(t.status, REPORT_STATUSES)),
    check('reports_not_self', sql`${t.reporterId} <> ${t.reportedId}`),
    check('reports_resolved', sql`(${t.status} = 'open') = (${t.resolvedAt} is null)`),
  ],
);

/** Every moderation action: who did what, to whom, when. Never updated or deleted by the app. */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** A dispute's decision (issue 36). */
    disputeId: uuid('dispute_id').references((): AnyPgColumn => disputes.id, { onDelete: 'set null' }),
    /** id_approve, id_reject: the check decided (its reason is the note). */
    idCheckId: uuid('id_check_id').references(() => idChecks.id, { onDelete: 'set null' }),
    /** reserve_fund: the amount added and the admin's note (where the money comes from). */
    amountCents: bigint('amount_cents', { mode: 'number' }),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('moderation_actions_created_idx').on(t.createdAt),
    check('moderation_actions_action_check', oneOf(t.action, MODERATION_ACTIONS)),
  ],
);
