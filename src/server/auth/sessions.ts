import { and, desc, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AuthContext } from '../core/auth-context';
import type { Db } from '../db/client';
import { pgNotify, type Notifications } from '../db/notify';
import { rowsOf } from '../db/result-rows';
import { planFrom } from '../plans';
import { profiles, sessions, twoFactorSecrets, users } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';
import { recordBrowser } from './new-browser';
import { SessionCache } from './session-cache';
import { hashToken, newSessionToken } from './tokens';
import { browserLabel } from './user-agent';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  touchMs: number;
  /** How long a resolved session is reused from memory; 0 looks every call up (see session-cache.ts). */
  cacheMs?: number;
}

/**
 * Payload `token:<sha-256 hex>` (one session: revoked, or its token replaced when it gave its second factor),
 * `user:<id>` (all of a user's sessions, or all but one: revoked, or made to wait for a second factor when two-factor
 * was turned on), or `profile:<id>` (the user's name changed: cached sessions are dropped and looked up again, none
 * is revoked; the event hub ignores this kind). Every kind drops the cached sessions it names; the event hub
 * re-checks the streams of the first two.
 */
export const SESSION_REVOKED = 'session_revoked';

/** One signed-in browser of a user (Settings, 'Sessions'). */
export interface SessionListing {
  id: string;
  /** 'Chrome on Windows', from the session's User-Agent (user-agent.ts). */
  browser: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/**
 * The sessions of every user: made at sign-in, resolved on every request (from a cache kept per instance when
 * `notifications` can carry revocations between instances; without it the cache stays off), slid while in use,
 * raised by the code step, listed and ended. Every change that ends or alters sessions notifies every instance in
 * the statement that makes it (SESSION_REVOKED). `clock` stamps a session's `verified_at` (its last password or code
 * check), which the re-check of sensitive actions compares with the same clock (account/identity.ts).
 */
export function createSessions(
  db: Db,
  policy: SessionPolicy,
  notifications?: Notifications,
  clock: () => Date = () => new Date(),
) {
  const cache = new SessionCache<AuthContext>(policy.cacheMs ?? 0, (ctx) => ctx.user.id);
  if (notifications && cache.ttlMs > 0) {
    notifications.listen(
      SESSION_REVOKED,
      (payload) => {
        if (payload.startsWith('token:')) cache.evict(payload.slice('token:'.length));
        else if (payload.startsWith('user:')) cache.evictOwner(payload.slice('user:'.length));
        else if (payload.startsWith('profile:')) cache.evictOwner(payload.slice('profile:'.length));
      },
      (listening) => cache.trust(listening),
    );
  }

  /**
   * A new session for a signed-in user, from the browser whose cookie holds `browserId`. In the same transaction
   * the browser is recorded as the account's; one it has not seen before is told to its owner ('new_sign_in',
   * always e-mailed, naming the browser from its User-Agent). With `pending` (two-factor is on) the session starts
   * at aal1 and unchecked: it signs nothing in until completeSecondFactor.
   */
  async function createSession(
    userId: string,
    userAgent: string | undefined,
    browserId: string,
    { pending }: { pending: boolean } = { pending: false },
  ) {
    const token = newSessionToken();
    const now = Date.now();
    const expiresAt = new Date(now + policy.absoluteMs);
    await db.transaction(async (tx) => {
      await tx.insert(sessions).values({
        tokenHash: hashToken(token),
        userId,
        expiresAt,
        lastSeenAt: new Date(now),
        userAgent: userAgent?.slice(0, 500) ?? null,
        // Signing in with the password is a check (sensitive actions need one within 10 minutes); with
        // two-factor on, only the code completes it.
        verifiedAt: pending ? null : clock(),
      });
      if (!(await recordBrowser(tx, userId, browserId))) return;
      const out = new Outbox();
      await notify(tx, out, [{ userId, type: 'new_sign_in', data: { browser: browserLabel(userAgent) } }]);
      await out.flush(tx);
    });
    return { token, expiresAt, lastSeenAt: new Date(now) };
  }

  // Built once, so a cache miss or refresh does not assemble the join's SQL again (docs/decisions/024-tail-latency.md).
  const sessionByToken = db
    .select({
      id: sessions.id,
      aal: sessions.aal,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      fullName: profiles.fullName,
      emailVerifiedAt: profiles.emailVerifiedAt,
      plan: profiles.plan,
      role: users.role,
      twoFactorOn: twoFactorSecrets.userId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(twoFactorSecrets, twoFactorOn(users.id))
    // A suspended account's sessions are deleted when it is suspended; this holds even before that commits.
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(users.suspendedAt)))
    .limit(1)
    .prepare('session_by_token');

  /** Looks a token up; expired (idle or absolute) sessions are deleted and yield null. */
  async function resolveSession(token: string): Promise<AuthContext | null> {
    const tokenHash = hashToken(token);
    const cached = cache.get(tokenHash);
    if (cached) {
      if (isLive(cached.session, Date.now())) {
        if (cache.claimRefresh(tokenHash)) {
          // Renewed off the request path; a failed renewal just lets the entry go.
          lookup(tokenHash).then(
            (fresh) => fresh ?? cache.drop(tokenHash),
            () => cache.drop(tokenHash),
          );
        }
        return cached;
      }
      cache.drop(tokenHash);
    }
    return lookup(tokenHash);
  }

  /** Reads a session from the database, deletes it when expired, and caches it when live. */
  async function lookup(tokenHash: string): Promise<AuthContext | null> {
    const since = cache.begin();
    const [row] = await sessionByToken.execute({ tokenHash });
    if (!row) return null;
    const now = Date.now();
    if (!isLive(row, now)) {
      await db.delete(sessions).where(eq(sessions.id, row.id));
      return null;
    }
    const aal = row.aal === 'aal2' ? 'aal2' : 'aal1';
    const ctx: AuthContext = {
      user: {
        id: row.userId,
        email: row.email,
        full_name: row.fullName,
        is_admin: row.role === 'admin',
        email_verified: row.emailVerifiedAt !== null,
        plan: planFrom(row.plan),
      },
      session: {
        id: row.id,
        aal,
        lastSeenAt: row.lastSeenAt,
        expiresAt: row.expiresAt,
        // Two-factor on and no code given by this session (it started so, or it predates turning it on).
        pending: aal === 'aal1' && row.twoFactorOn !== null,
      },
    };
    // The cached object is shared: the session middleware's touch updates its lastSeenAt for every later hit.
    cache.set(tokenHash, ctx, since);
    return ctx;
  }

  function isLive(s: { expiresAt: Date; lastSeenAt: Date }, now: number): boolean {
    return s.expiresAt.getTime() > now && s.lastSeenAt.getTime() + policy.idleMs > now;
  }

  /** Slides the idle window forward; returns the new last-seen time, or null when no refresh was due. */
  async function touchSession(ctx: AuthContext): Promise<Date | null> {
    const now = new Date();
    if (now.getTime() - ctx.session.lastSeenAt.getTime() < policy.touchMs) return null;
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, ctx.session.id), gt(sessions.expiresAt, now)));
    return now;
  }

  /**
   * Deletes the session and, in the same statement, notifies every instance (sent only if the delete commits).
   * The local entry goes first, so this instance never serves it again even before the notification returns.
   */
  async function revokeSession(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    cache.evict(tokenHash);
    await db.execute(sql`
      with gone as (delete from ${sessions} where ${sessions.tokenHash} = ${tokenHash} returning 1)
      select ${pgNotify(SESSION_REVOKED, `token:${tokenHash}`)} where exists (select 1 from gone)`);
  }

  /**
   * The code step of sign-in (POST /auth/two-factor) succeeded: the pending session of `token` becomes aal2, counts
   * as just checked, and gets a new token, so a token seen before the second factor was given (planted, or read off
   * the wire of the password step) never signs anyone in. Every instance drops the old token at once (`token:`,
   * sent with the update). Null when the token no longer names a pending session.
   */
  async function completeSecondFactor(token: string) {
    const oldHash = hashToken(token);
    const fresh = newSessionToken();
    cache.evict(oldHash);
    const result = await db.execute(sql`
      with raised as (
        update ${sessions}
        set token_hash = ${hashToken(fresh)}, aal = 'aal2', verified_at = ${clock().toISOString()}
        where ${sessions.tokenHash} = ${oldHash} and ${sessions.aal} = 'aal1'
        returning ${sessions.lastSeenAt} as last_seen_at, ${sessions.expiresAt} as expires_at
      )
      select last_seen_at, expires_at, ${pgNotify(SESSION_REVOKED, `token:${oldHash}`)} from raised`);
    const [row] = rowsOf<{ last_seen_at: Date | string; expires_at: Date | string }>(result);
    if (!row) return null;
    return { token: fresh, lastSeenAt: new Date(row.last_seen_at), expiresAt: new Date(row.expires_at) };
  }

  /**
   * Runs `work` (turning two-factor on or off, which changes what the user's sessions are) in a transaction that
   * also tells every instance to drop the user's cached sessions and its event streams to re-check theirs
   * (`user:`); this instance forgets them before and once it has committed.
   */
  async function changeSessions<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T> {
    cache.evictOwner(userId);
    const result = await db.transaction(async (tx) => {
      const value = await work(tx);
      await tx.execute(sql`select ${pgNotify(SESSION_REVOKED, `user:${userId}`)}`);
      return value;
    });
    cache.evictOwner(userId);
    return result;
  }

  /**
   * Deletes the user's sessions (all of them, or all but those `keep` spares) and, in the same statement, notifies
   * every instance (sent only if the delete commits, and only when something was deleted). Returns how many ended.
   */
  async function deleteUserSessions(exec: Db, userId: string, keep: SQL = sql``): Promise<number> {
    const result = await exec.execute(sql`
      with gone as (delete from ${sessions} where ${sessions.userId} = ${userId} ${keep} returning 1),
        counted as (select count(*)::int as n from gone)
      select n, ${pgNotify(SESSION_REVOKED, `user:${userId}`)} from counted where n > 0`);
    return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  }
  const sparingSession = (id?: string) => (id ? sql`and ${sessions.id} <> ${id}` : sql``);

  /**
   * Signs a user out everywhere (password reset, account deletion, suspension), or everywhere but the session of
   * `keepToken`.
   */
  async function revokeUserSessions(userId: string, keepToken?: string): Promise<void> {
    cache.evictOwner(userId);
    await deleteUserSessions(db, userId, keepToken ? sql`and ${sessions.tokenHash} <> ${hashToken(keepToken)}` : sql``);
  }

  /** 'Sign out of all other sessions': every session of the user but `currentSessionId` ends, on every instance. */
  async function revokeOtherSessions(userId: string, currentSessionId: string): Promise<number> {
    cache.evictOwner(userId);
    const count = await deleteUserSessions(db, userId, sparingSession(currentSessionId));
    cache.evictOwner(userId);
    return count;
  }

  /**
   * Ends one session of the user by its id, never `currentSessionId` (that one signs out through /auth/sign-out).
   * Every instance drops it at once (the `token:` notification, sent with the delete). False when no such session
   * of this user exists (another user's, the current one, unknown).
   */
  async function revokeSessionById(userId: string, sessionId: string, currentSessionId: string): Promise<boolean> {
    if (sessionId === currentSessionId) return false;
    const result = await db.execute(sql`
      with gone as (
        delete from ${sessions}
        where ${sessions.id} = ${sessionId} and ${sessions.userId} = ${userId}
        returning ${sessions.tokenHash} as token_hash
      )
      select token_hash, ${pgNotify(SESSION_REVOKED, sql`'token:' || token_hash`)} from gone`);
    const gone = rowsOf<{ token_hash: string }>(result);
    for (const row of gone) cache.evict(row.token_hash);
    return gone.length > 0;
  }

  /** The user's live sessions (neither idle nor past their absolute end), most recently active first. */
  async function listSessions(userId: string): Promise<SessionListing[]> {
    const now = new Date();
    const rows = await db
      .select({
        id: sessions.id,
        userAgent: sessions.userAgent,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt), desc(sessions.id))
      .limit(500);
    return rows.map(({ userAgent, ...row }) => ({ ...row, browser: browserLabel(userAgent) }));
  }

  /**
   * Runs `work` in a transaction that also tells every instance the user's shown details changed (their name), so
   * no session cache keeps serving the old ones; this instance forgets them once it has committed.
   */
  async function changeUser<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T> {
    const result = await db.transaction(async (tx) => {
      const value = await work(tx);
      await tx.execute(sql`select ${pgNotify(SESSION_REVOKED, `profile:${userId}`)}`);
      return value;
    });
    cache.evictOwner(userId);
    return result;
  }

  /**
   * Ends every session of the user inside the caller's transaction (account deletion); every instance is told when
   * it commits, and this one forgets its cached copies at once.
   */
  async function endUserSessions(tx: Db, userId: string): Promise<void> {
    cache.evictOwner(userId);
    await deleteUserSessions(tx, userId);
  }

  return {
    createSession,
    resolveSession,
    touchSession,
    completeSecondFactor,
    changeSessions,
    deleteUserSessions,
    sparingSession,
    revokeSession,
    revokeUserSessions,
    revokeOtherSessions,
    revokeSessionById,
    listSessions,
    changeUser,
    endUserSessions,
    /** Drops the user's sessions from this instance's cache (the others hear it from the change's notification). */
    forgetUser: (userId: string) => cache.evictOwner(userId),
    policy,
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** Joins the user's two-factor secret only when it is confirmed (two-factor on). */
export const twoFactorOn = (userId: typeof users.id) =>
  and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt));
