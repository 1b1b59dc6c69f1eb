import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ABOUT_MAX } from '../../../shared/account';
import { LIMITS } from '../../../shared/limits';

// People and their sign-in: accounts, profiles, sessions, password-reset links and e-mail changes.

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored trimmed and lower-cased; the unique index on lower(email) guards against any other writer. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'admin' is granted on the command line only (`npm run admin:grant -- email`); admins moderate reports. */
    role: text('role').notNull().default('user'),
    /** Set by a moderator: the account cannot sign in, its sessions are gone and its listings leave Browse. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, precision: 3 }),
    /**
     * 'Delete account': the row stays so messages and reviews keep their author, shown as 'Deleted
     * user'; the e-mail becomes `deleted-<id>@deleted.invalid`, the password hash unusable, the name erased.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The few suspended accounts: queries that read many listings leave their owners out with one hashed set
    // (src/server/places/filters.ts) instead of a users probe per row.
    index('users_suspended_idx')
      .on(t.id)
      .where(sql`${t.suspendedAt} is not null`),
    check('users_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(LIMITS.emailMax))}`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Published reviews of this person and the sum of their stars: bumped by the transaction that
     * publishes reviews, so a card shows '4.8 ★ · 12 reviews' without reading any review.
     */
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    /** 'About you', shown on the profile page. */
    about: text('about'),
    // ─── Verified profiles (issue 37, src/shared/verification.ts) ───
    /** The account's current address was confirmed by a link mailed to it (sign-up, 'Resend email', a change). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, precision: 3 }),
    /** The verified number, E.164 (+1...). One account at a time (the unique index); never shown to others. */
    phone: text('phone'),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true, precision: 3 }),
    /** A moderator approved an ID check under the current name; a new name clears it. */
    idCheckedAt: timestamp('id_checked_at', { withTimezone: true, precision: 3 }),
    /** All three: the 'Verified' badge and Browse's 'Verified members only'. */
    verified: boolean('verified')
      .notNull()
      .generatedAlwaysAs(
        sql`email_verified_at is not null and phone_verified_at is not null and id_checked_at is not null`,
      ),
    // ─── Paid plans (issue 38, src/shared/plans.ts) ───
    /**
     * The member's paid plan while it gives its benefits ('plus', 'community'; null is Free): written by every plan
     * move in its transaction, read by Browse's priority order and the 'Ambassador' badge. plan_subscriptions holds
     * the plan's whole state.
     */
    plan: text('plan'),
    /** Settings 'Try new features first' (Community): early-access features are on for this member. */
    earlyAccess: boolean('early_access').notNull().default(false),
  },
  (t) => [
    uniqueIndex('profiles_phone_key')
      .on(t.phone)
      .where(sql`${t.phone} is not null`),
    check('profiles_plan_check', sql`${t.plan} in ('plus', 'community')`),
    check('profiles_phone_verified', sql`(${t.phone} is null) = (${t.phoneVerifiedAt} is null)`),
    check(
      'profiles_full_name_length',
      sql`char_length(${t.fullName}) between 1 and ${sql.raw(String(LIMITS.fullNameMax))}`,
    ),
    check('profiles_rating_range', sql`${t.ratingSum} between ${t.ratingCount} and 5 * ${t.ratingCount}`),
    check('profiles_about_length', sql`char_length(${t.about}) <= ${sql.raw(String(ABOUT_MAX))}`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the opaque token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aal: text('aal').notNull().default('aal1'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /**
     * The last time this session's password (and code, with two-factor on) was checked: sign-in, 'Confirm it's
     * you', a settings form with the password. Sensitive actions need it within RECENT_CHECK_MINUTES.
     */
    verifiedAt: timestamp('verified_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), check('sessions_aal_check', sql`${t.aal} in ('aal1', 'aal2')`)],
);

// ─── Account recovery ───────────────────────────────────────────────────────────────────────────────────
/**
 * 'Forgot password?' links: the token is sent by e-mail and only its SHA-256 is stored. Valid RESET_LINK_MINUTES,
 * once (`used_at`); asking again leaves older links valid until they expire or one is used (then all are spent).
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/**
 * 'Email': a change waiting for its link to be opened. Only the token's SHA-256 is stored; valid EMAIL_LINK_HOURS,
 * once; a newer request for the same user replaces the older (delete + insert).
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);
