import { eq, sql } from 'drizzle-orm';
import type { AccountProfile, AccountSession, ChangePasswordInput } from '../../shared/account';
import { notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { profiles, users } from '../db/schema';
import { pendingEmailOf } from './email-service';
import type { Caller, IdentityChecks } from './identity';

export const SESSION_NOT_FOUND = 'Session not found.';

/**
 * What the account settings need from the auth feature (app.ts passes the auth service; features reach each other
 * only through their public modules, and auth's work on sessions and passwords stays in auth/service.ts).
 */
export interface AccountAuth {
  /** New hash, every other session ended (on every instance), 'password_changed' sent: one transaction. */
  changePassword(userId: string, newPassword: string, keepSessionId?: string): Promise<number>;
  /** Runs `work` in a transaction that makes every instance forget its cached copies of the user's name. */
  changeUser<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T>;
  listSessions(userId: string): Promise<{ id: string; browser: string; createdAt: Date; lastSeenAt: Date }[]>;
  revokeSessionById(userId: string, sessionId: string, currentSessionId: string): Promise<boolean>;
  revokeOtherSessions(userId: string, currentSessionId: string): Promise<number>;
}

export type { Caller } from './identity';

/** The form's fields after validation (profileInputSchema's output). */
export interface ProfileChange {
  full_name: string;
  about: string | null;
}

/**
 * Settings 'Profile', 'Password' and 'Sessions'. Everything acts on the caller's own account only.
 * `identity` checks passwords and codes, and bounds wrong ones per account as sign-in bounds wrong passwords.
 */
export function createAccountService(
  db: Db,
  auth: AccountAuth,
  identity: IdentityChecks,
  clock: () => Date = () => new Date(),
) {
  async function profile(userId: string, exec: Db = db): Promise<AccountProfile> {
    const [row] = await exec
      .select({ full_name: profiles.fullName, about: profiles.about, email: users.email })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw notFound('Account not found.');
    return { ...row, pending_email: await pendingEmailOf(exec, userId, clock()) };
  }

  /**
   * The whole 'Profile' form: the name, and 'About you' (empty or omitted clears it). The new name shows at once
   * wherever the session's user is shown, on every instance (the session caches are told in the same transaction).
   * A changed name clears 'ID checked' (the form says so before saving); the same name keeps it.
   */
  async function updateProfile(userId: string, change: ProfileChange): Promise<AccountProfile> {
    return auth.changeUser(userId, async (tx) => {
      await tx
        .update(profiles)
        .set({
          fullName: change.full_name,
          about: change.about,
          // A new name is not the one the ID was checked under: 'ID checked' goes until a new check (issue 37).
          idCheckedAt: sql`case when ${profiles.fullName} = ${change.full_name} then ${profiles.idCheckedAt} end`,
          updatedAt: sql`now()`,
        })
        .where(eq(profiles.userId, userId));
      return profile(userId, tx);
    });
  }

  /**
   * 'Password': the current password must match (and, with two-factor on and no recent check, a code:
   * identity.ts counts the tries). On success every other session ends and this one stays.
   */
  async function changePassword(caller: Caller, input: ChangePasswordInput): Promise<void> {
    await identity.verify(caller, { password: input.current_password, code: input.code });
    await auth.changePassword(caller.userId, input.new_password, caller.sessionId);
  }

  /** 'Sessions': the live ones, most recently active first; `current` is the caller's. */
  async function listSessions(caller: Caller): Promise<{ items: AccountSession[] }> {
    const rows = await auth.listSessions(caller.userId);
    return {
      items: rows.map((row) => ({
        id: row.id,
        browser: capitalize(row.browser),
        signed_in_at: row.createdAt.toISOString(),
        last_active_at: row.lastSeenAt.toISOString(),
        current: row.id === caller.sessionId,
      })),
    };
  }

  /** Ends one other session of the caller; the current one, another user's or an unknown id: 404. */
  async function signOutSession(caller: Caller, sessionId: string): Promise<void> {
    if (!(await auth.revokeSessionById(caller.userId, sessionId, caller.sessionId))) throw notFound(SESSION_NOT_FOUND);
  }

  /** 'Sign out of all other sessions': how many ended. */
  async function signOutOthers(caller: Caller): Promise<{ count: number }> {
    return { count: await auth.revokeOtherSessions(caller.userId, caller.sessionId) };
  }

  return {
    profile: (userId: string) => profile(userId),
    updateProfile,
    changePassword,
    listSessions,
    signOutSession,
    signOutOthers,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

/** 'an unknown browser' (as a notice words it) reads 'An unknown browser' as a list entry. */
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
