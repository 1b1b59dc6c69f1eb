import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ID_CHECK_STATUSES, ID_PHOTO_KINDS, ID_PHOTO_TYPES, ID_REJECT_REASON_KEYS } from '../../../shared/verification';
import { oneOf } from './checks';
import { users } from './accounts';

// ─── Verified profiles (issue 37, docs/verification.md) ──────────────────────────────────────────────────────────

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * E-mail confirmation links (sign-up and 'Resend email'): only the token's SHA-256 is stored, with the address it
 * was mailed to; valid EMAIL_VERIFY_LINK_HOURS, once. A link confirms only while the account still has that address.
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

/**
 * A code sent by SMS to a number an account wants verified: the code's hash, its expiry and the wrong tries so far.
 * A new send replaces the account's pending code; a right code marks it used and sets the profile's phone.
 */
export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** E.164. */
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    tries: integer('tries').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('phone_verifications_user_idx').on(t.userId)],
);

/**
 * One ID check: sent with two photos (id_documents), decided by a moderator. The decision, its date, the moderator
 * and the reason stay; the photos are deleted in the deciding transaction. `full_name` is the name it was sent under.
 */
export const idChecks = pgTable(
  'id_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    fullName: text('full_name').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
  },
  (t) => [
    // The moderators' queue, oldest first (keyset on submitted_at, id).
    index('id_checks_pending_idx')
      .on(t.submittedAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    index('id_checks_user_idx').on(t.userId, t.submittedAt),
    // One check waiting per person.
    uniqueIndex('id_checks_one_pending')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    check('id_checks_status_check', oneOf(t.status, ID_CHECK_STATUSES)),
    check('id_checks_reason_check', sql`${t.reason} is null or ${oneOf(t.reason, ID_REJECT_REASON_KEYS)}`),
    check('id_checks_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
    check('id_checks_rejected_reason', sql`(${t.status} = 'rejected') = (${t.reason} is not null)`),
  ],
);

/**
 * A check's photo, encrypted (AES-256-GCM): `key_id` names the key (ID_DOCUMENTS_KEY, or one made and kept in
 * app_secrets), never the key itself. Read by moderators only; gone once the check is decided.
 */
export const idDocuments = pgTable(
  'id_documents',
  {
    checkId: uuid('check_id')
      .notNull()
      .references(() => idChecks.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    contentType: text('content_type').notNull(),
    keyId: text('key_id').notNull(),
    iv: bytea('iv').notNull(),
    authTag: bytea('auth_tag').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.checkId, t.kind] }),
    check('id_documents_kind_check', oneOf(t.kind, ID_PHOTO_KINDS)),
    check('id_documents_type_check', oneOf(t.contentType, ID_PHOTO_TYPES)),
  ],
);
