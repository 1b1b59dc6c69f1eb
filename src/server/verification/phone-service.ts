import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, ne } from 'drizzle-orm';
import {
  PHONE_ALREADY_YOURS,
  PHONE_CODE_EXPIRED,
  PHONE_CODE_LENGTH,
  PHONE_CODE_LOCKED,
  PHONE_CODE_MINUTES,
  PHONE_CODE_TRIES,
  PHONE_NO_CODE,
  PHONE_SENDS_PER_HOUR,
  PHONE_TAKEN,
  phoneCodeWrong,
  type PhoneCodeInput,
  type PhoneInput,
  type PhoneState,
} from '../../shared/verification';
import { DomainError, unauthenticated } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { phoneVerifications, profiles, users } from '../db/schema';
import { enqueue } from '../jobs';
import { enforceLimit, tooManyMessage, type AttemptCounter, type WindowLimit } from '../limits';
import { formatUsPhone, parseUsPhone } from './phone-number';

/**
 * Settings > 'Verification' > 'Phone number' (docs/verification.md, 'Phone'). A request checks the number and the
 * limits, replaces the account's pending code by a new `phone_verifications` row and queues one PHONE_CODE_JOB in
 * the same transaction. The job (phone-sms.ts) makes the code, stores its hash on the row and texts it, so the code
 * is never written anywhere in clear, not even in the job table; a failed SMS is retried with backoff.
 *
 * Until the job has run, the row carries the hash of a code nobody knows (the column is required).
 */

/** The job kind; its payload is `{ verification_id, user_id }` (the user id lets account deletion drop it). */
export const PHONE_CODE_JOB = 'phone-code';
export const PHONE_CODE_MS = PHONE_CODE_MINUTES * 60_000;
const HOUR = 3_600_000;

/** A code: PHONE_CODE_LENGTH random digits (crypto), leading zeros kept. */
export const newPhoneCode = () => String(randomInt(0, 10 ** PHONE_CODE_LENGTH)).padStart(PHONE_CODE_LENGTH, '0');
/**
 * The stored form: HMAC-SHA-256 keyed by the row's id, so equal codes of two rows differ and no table of the million
 * codes' hashes serves every row. (A million codes stay guessable from a copy of the database: what protects a code
 * is its PHONE_CODE_MINUTES and PHONE_CODE_TRIES.)
 */
export const hashPhoneCode = (rowId: string, code: string) => createHmac('sha256', rowId).update(code).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const refuse = (code: 'phone_taken' | 'phone_already_yours' | 'phone_code_expired' | 'wrong_code', message: string) =>
  new DomainError(code, message);

/**
 * Serializes the work on one person's phone (a request, a confirmation, a removal, the job storing its code): each
 * takes the user's row lock first. False for a suspended or deleted account.
 */
export async function lockPhoneOwner(tx: Db, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ suspendedAt: users.suspendedAt, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return Boolean(row && !row.suspendedAt && !row.deletedAt);
}

/** The account's code that still works at `now`: unused, unexpired, tries left (at most one exists). */
export async function workingCodeOf(exec: Db, userId: string, now: Date) {
  const [row] = await exec
    .select({ id: phoneVerifications.id, phone: phoneVerifications.phone, expiresAt: phoneVerifications.expiresAt })
    .from(phoneVerifications)
    .where(
      and(
        eq(phoneVerifications.userId, userId),
        isNull(phoneVerifications.usedAt),
        gt(phoneVerifications.expiresAt, now),
        lt(phoneVerifications.tries, PHONE_CODE_TRIES),
      ),
    )
    .orderBy(desc(phoneVerifications.createdAt))
    .limit(1);
  return row;
}

export interface PhoneVerificationOptions {
  /** The app's clock: a code's 10 minutes (tests move it). */
  clock: () => Date;
  /** The PostgreSQL attempt counters: sends per account and per number hold across every instance. */
  counter: AttemptCounter;
  /** Sends per account and per number: PHONE_SENDS_PER_HOUR per hour unless a test says otherwise. */
  sends?: WindowLimit;
}

export function createPhoneVerificationService(db: Db, opts: PhoneVerificationOptions) {
  const sends = opts.sends ?? { max: PHONE_SENDS_PER_HOUR, windowMs: HOUR };

  /** What Settings shows: my verified number and the code waiting, if any. */
  async function state(userId: string): Promise<PhoneState> {
    const [me] = await db
      .select({ phone: profiles.phone, verifiedAt: profiles.phoneVerifiedAt })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .limit(1);
    const pending = await workingCodeOf(db, userId, opts.clock());
    return {
      phone: me?.phone ? formatUsPhone(me.phone) : null,
      verified_at: me?.verifiedAt?.toISOString() ?? null,
      pending: pending ? { phone: formatUsPhone(pending.phone), expires_at: pending.expiresAt.toISOString() } : null,
    };
  }

  /**
   * 'Send code'. Refused, with nothing sent or stored: not a US number (400), my own verified number (409), a number
   * verified on another account (409), more than PHONE_SENDS_PER_HOUR sends this hour for the account or for the
   * number (429). The account's count is taken before the other-account check, so that check cannot be used to probe
   * numbers faster than codes can be sent; the number's count after it, so such probing never uses up the sends of
   * the number's owner.
   */
  async function requestCode(userId: string, input: PhoneInput): Promise<PhoneState> {
    const phone = parseUsPhone(input.phone);
    const [me] = await db.select({ phone: profiles.phone }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
    if (me?.phone === phone) throw refuse('phone_already_yours', PHONE_ALREADY_YOURS);
    await enforceLimit(opts.counter, 'phone-send-account', userId, sends, tooManyMessage);
    const [other] = await db
      .select({ userId: profiles.userId })
      .from(profiles)
      .where(and(eq(profiles.phone, phone), ne(profiles.userId, userId)))
      .limit(1);
    if (other) throw refuse('phone_taken', PHONE_TAKEN);
    await enforceLimit(opts.counter, 'phone-send-number', phone, sends, tooManyMessage);

    const now = opts.clock();
    const id = randomUUID();
    await db.transaction(async (tx) => {
      if (!(await lockPhoneOwner(tx, userId))) throw unauthenticated();
      await tx
        .delete(phoneVerifications)
        .where(and(eq(phoneVerifications.userId, userId), isNull(phoneVerifications.usedAt)));
      await tx.insert(phoneVerifications).values({
        id,
        userId,
        phone,
        // Replaced by the job's code; until then no code matches.
        codeHash: hashPhoneCode(id, randomUUID()),
        createdAt: now,
        expiresAt: new Date(now.getTime() + PHONE_CODE_MS),
      });
      await enqueue(tx, { kind: PHONE_CODE_JOB, payload: { verification_id: id, user_id: userId } });
    });
    return state(userId);
  }

  type Outcome = { ok: true } | { error: DomainError };

  /**
   * 'Verify'. The right code within its minutes sets my number and its verification time and is used up (once). A
   * wrong one counts a try (committed, so tries hold whatever the answer) and says how many are left; after
   * PHONE_CODE_TRIES the code stops working. Under my row lock, so two confirmations of one code cannot both pass
   * and a try is never lost; the unique index on profiles.phone decides between two accounts confirming one number.
   */
  async function confirm(userId: string, input: PhoneCodeInput): Promise<PhoneState> {
    let outcome: Outcome;
    try {
      outcome = await db.transaction(async (tx): Promise<Outcome> => {
        if (!(await lockPhoneOwner(tx, userId))) throw unauthenticated();
        const now = opts.clock();
        const [row] = await tx
          .select()
          .from(phoneVerifications)
          .where(and(eq(phoneVerifications.userId, userId), isNull(phoneVerifications.usedAt)))
          .orderBy(desc(phoneVerifications.createdAt))
          .limit(1);
        if (!row) return { error: refuse('phone_code_expired', PHONE_NO_CODE) };
        if (row.tries >= PHONE_CODE_TRIES) return { error: refuse('phone_code_expired', PHONE_CODE_LOCKED) };
        if (row.expiresAt.getTime() <= now.getTime())
          return { error: refuse('phone_code_expired', PHONE_CODE_EXPIRED) };
        if (!sameHash(hashPhoneCode(row.id, input.code), row.codeHash)) {
          await tx
            .update(phoneVerifications)
            .set({ tries: row.tries + 1 })
            .where(eq(phoneVerifications.id, row.id));
          return { error: refuse('wrong_code', phoneCodeWrong(PHONE_CODE_TRIES - row.tries - 1)) };
        }
        const [other] = await tx
          .select({ userId: profiles.userId })
          .from(profiles)
          .where(and(eq(profiles.phone, row.phone), ne(profiles.userId, userId)))
          .limit(1);
        if (other) return { error: refuse('phone_taken', PHONE_TAKEN) };
        await tx.update(profiles).set({ phone: row.phone, phoneVerifiedAt: now }).where(eq(profiles.userId, userId));
        await tx.update(phoneVerifications).set({ usedAt: now }).where(eq(phoneVerifications.id, row.id));
        return { ok: true };
      });
    } catch (err) {
      // Another account confirmed the same number between our check and our update (profiles_phone_key).
      if (isUniqueViolation(err)) throw refuse('phone_taken', PHONE_TAKEN);
      throw err;
    }
    if ('error' in outcome) throw outcome.error;
    return state(userId);
  }

  /** 'Remove number': my number and 'Phone verified' go, and so does any code waiting. */
  async function remove(userId: string): Promise<void> {
    await db.transaction(async (tx) => {
      if (!(await lockPhoneOwner(tx, userId))) throw unauthenticated();
      await tx.update(profiles).set({ phone: null, phoneVerifiedAt: null }).where(eq(profiles.userId, userId));
      await tx
        .delete(phoneVerifications)
        .where(and(eq(phoneVerifications.userId, userId), isNull(phoneVerifications.usedAt)));
    });
  }

  return { state, requestCode, confirm, remove };
}

export type PhoneVerificationService = ReturnType<typeof createPhoneVerificationService>;
