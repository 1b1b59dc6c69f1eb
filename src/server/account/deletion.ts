import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { DELETED_USER_NAME, type DeleteAccountInput } from '../../shared/account';
import { endBookingsOfLeavingUser } from '../bookings';
import type { Db } from '../db/client';
import {
  blocks,
  contactMessages,
  deliveryRequests,
  emailChanges,
  emailVerifications,
  idChecks,
  idDocuments,
  eventStreams,
  idempotencyKeys,
  myListVersions,
  knownBrowsers,
  notificationPreferences,
  savedSearches,
  notifications,
  passwordResetTokens,
  phoneVerifications,
  profiles,
  recoveryCodes,
  rides,
  twoFactorSecrets,
  userEvents,
  users,
} from '../db/schema';
import { Outbox } from '../events';
import { enqueue } from '../jobs';
import type { AttemptCounter } from '../limits';
import { notify } from '../notifications';
import { ACCOUNT_DELETED_JOB } from './deletion-mail';
import type { Caller, IdentityChecks } from './identity';

/**
 * 'Delete account' (docs/account-data.md). After the password (and, with two-factor on, always a code),
 * ONE transaction ends the person's part in the marketplace as they could have themselves, erases what identifies
 * them and keeps only what other people's history needs (bookings, their events, messages, reviews, reports),
 * shown from then on as DELETED_USER_NAME. The users row stays as a tombstone (its id is what those rows point
 * to): e-mail `deleted-<id>@deleted.invalid`, an unusable password hash, `deleted_at` set. The address is free
 * for a new account at once.
 */

export interface DeletionOptions {
  clock: () => Date;
  /** auth.changeUser: runs the work in a transaction that makes every instance forget the user's cached sessions. */
  changeUser<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T>;
  /** Deletes every session of the user in `tx`; every instance (and its live streams) is told on commit. */
  endSessions(tx: Db, userId: string): Promise<void>;
  counter: AttemptCounter;
}

/** Not an argon2 hash: verifying any password against it fails at once (auth/password.ts answers false). */
export const UNUSABLE_PASSWORD_HASH = '!account-deleted';

export const tombstoneEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * The attempt counters keyed by the account's id or address (stored as salted SHA-256 hashes, never in clear):
 * sign-in failures and forgotten-password mails per address, password and code checks, writes and messages per
 * account. The per-address-and-client-IP counters cannot be named without the IP; they end with their window.
 */
const COUNTERS_BY_EMAIL = ['sign-in-account', 'forgot-password-address'];
const COUNTERS_BY_ID = ['password-check', 'code-check', 'write', 'message'];

/** An outbox that tells everyone but the leaving person: their streams end with their sessions. */
class OutboxWithout extends Outbox {
  constructor(private readonly skip: string) {
    super();
  }

  override add(...[userIds, type, data]: Parameters<Outbox['add']>): this {
    super.add(
      userIds.filter((u) => u !== this.skip),
      type,
      data,
    );
    return this;
  }
}

export function createAccountDeletion(db: Db, identity: IdentityChecks, opts: DeletionOptions) {
  /**
   * The other people's notifications about the person's bookings name them (`actor_name`, copied when written),
   * and so do those notifications' live events kept for resumes: both now say DELETED_USER_NAME.
   */
  async function renameInOthersNotices(tx: Db, userId: string, oldName: string): Promise<void> {
    await tx.execute(sql`
      with mine as (
        select b.id::text as booking_id,
          case when b.driver_id = ${userId} then b.requester_id else b.driver_id end as other_id
        from bookings b where b.driver_id = ${userId} or b.requester_id = ${userId}
      ), renamed as (
        update notifications n set data = n.data || jsonb_build_object('actor_name', ${DELETED_USER_NAME}::text)
        from mine
        where n.user_id = mine.other_id and n.data ->> 'booking_id' = mine.booking_id
          and n.data ->> 'actor_name' <> ${DELETED_USER_NAME}
        returning n.id::text as id, n.user_id
      )
      update user_events e
      set data = case when e.data ? 'row'
        -- Written by a database function (the accept's): the row, worded when sent (notifications/liveEventData).
        then jsonb_set(e.data, '{row,data,actor_name}', to_jsonb(${DELETED_USER_NAME}::text))
        else jsonb_set(e.data, '{notification,text}',
          to_jsonb(replace(e.data #>> '{notification,text}', ${oldName}::text, ${DELETED_USER_NAME}::text))) end
      from renamed r
      where e.user_id = r.user_id and e.type = 'notification.created'
        and coalesce(e.data #>> '{notification,id}', e.data #>> '{row,id}') = r.id`);
  }

  /** Everything of the transaction; null when the account is already deleted (a second request raced this one). */
  async function erase(tx: Db, userId: string): Promise<string | null> {
    const [me] = await tx
      .select({ email: users.email, name: profiles.fullName })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for('update', { of: users });
    if (!me) return null;
    // First, so every notice written below already names DELETED_USER_NAME and never the person.
    await tx
      .update(profiles)
      .set({
        fullName: DELETED_USER_NAME,
        about: null,
        // A deleted account shows no check (issue 37).
        emailVerifiedAt: null,
        phone: null,
        phoneVerifiedAt: null,
        idCheckedAt: null,
        updatedAt: sql`now()`,
      })
      .where(eq(profiles.userId, userId));

    const out = new OutboxWithout(userId);
    await notify(tx, out, await endBookingsOfLeavingUser(tx, userId, out));
    await renameInOthersNotices(tx, userId, me.name);

    // Rides are never booked; requests with a booking stay (status 'deleted': in no list) for its history.
    await tx.delete(rides).where(eq(rides.userId, userId));
    await tx
      .delete(deliveryRequests)
      .where(
        and(
          eq(deliveryRequests.userId, userId),
          sql`not exists (select 1 from bookings b where b.request_id = ${deliveryRequests.id})`,
        ),
      );
    await tx
      .update(deliveryRequests)
      .set({ status: 'deleted' })
      .where(and(eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')));

    await tx
      .update(users)
      .set({ email: tombstoneEmail(userId), passwordHash: UNUSABLE_PASSWORD_HASH, deletedAt: opts.clock() })
      .where(eq(users.id, userId));
    // Queued mails to the person (their notifications' e-mails, a reset link, an e-mail change) and any job naming them.
    await tx.execute(sql`
      delete from jobs
      where strpos(payload::text, ${me.email}) > 0 or strpos(payload::text, ${userId}) > 0
        or payload ->> 'notification_id' in (select id::text from notifications where user_id = ${userId})`);
    for (const table of [
      notifications,
      notificationPreferences,
      twoFactorSecrets,
      recoveryCodes,
      emailChanges,
      emailVerifications,
      // Phone codes, sent or waiting (the number goes with the profile's phone above).
      phoneVerifications,
      passwordResetTokens,
      knownBrowsers,
      userEvents,
      eventStreams,
      savedSearches,
      // Kept answers of repeated writes: their bodies may hold the name, e-mail or messages.
      idempotencyKeys,
      // The own lists' version rows (src/server/listings), bumped by the deletion's own writes above.
      myListVersions,
    ])
      await tx.delete(table).where(eq(table.userId, userId));
    // ID checks (issue 37): a waiting check goes with its photos (the users row stays, so no cascade fires); a decided
    // one keeps its decision for the moderation log, without the name it was sent under. 'ID checked' goes with the name.
    await tx
      .delete(idDocuments)
      .where(
        inArray(idDocuments.checkId, tx.select({ id: idChecks.id }).from(idChecks).where(eq(idChecks.userId, userId))),
      );
    await tx.delete(idChecks).where(and(eq(idChecks.userId, userId), eq(idChecks.status, 'pending')));
    await tx.update(idChecks).set({ fullName: DELETED_USER_NAME }).where(eq(idChecks.userId, userId));
    await tx.update(profiles).set({ idCheckedAt: null }).where(eq(profiles.userId, userId));
    // Blocks serve nothing once one side is gone (a new account of the address is a new person).
    await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
    await tx.delete(contactMessages).where(sql`lower(${contactMessages.email}) = ${me.email.toLowerCase()}`);
    await opts.endSessions(tx, userId);
    // The confirmation goes to the old address; the job forgets it once sent (deletion-mail.ts).
    await enqueue(tx, { kind: ACCOUNT_DELETED_JOB, payload: { email: me.email } });
    // Last: the outbox takes its locks after every other lock of the transaction (events/outbox.ts).
    await out.flush(tx);
    return me.email;
  }

  /**
   * `POST /account/delete`: `wrong_password`, `code_required`, `wrong_code` and `too_many_requests` as every
   * password check (identity.ts); then the deletion. Idempotent: a repeat after success finds nothing to do.
   */
  async function deleteAccount(caller: Caller, input: Pick<DeleteAccountInput, 'password' | 'code'>): Promise<void> {
    await identity.verify(caller, { password: input.password, code: input.code }, { codeAlways: true });
    const email = await opts.changeUser(caller.userId, (tx) => erase(tx, caller.userId));
    if (!email) return;
    // Best effort, after the commit: these rows end with their window anyway.
    await Promise.all([
      ...COUNTERS_BY_EMAIL.map((scope) => opts.counter.clear(scope, email)),
      ...COUNTERS_BY_ID.map((scope) => opts.counter.clear(scope, caller.userId)),
    ]).catch((err: unknown) =>
      console.warn('[account] clearing the attempt counters of a deleted account failed:', err),
    );
  }

  return { deleteAccount };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
