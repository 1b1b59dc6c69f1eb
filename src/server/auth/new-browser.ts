import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { knownBrowsers } from '../db/schema';

/**
 * Browsers an account has signed in from (docs/notifications.md, 'new_sign_in'). Each browser carries a long-lived
 * random id in its own cookie (routes.ts sets it on sign-up and sign-in); only the id's SHA-256 is stored, per
 * account, in known_browsers. A sign-in from a browser the account has not seen is told to its owner, unless the
 * account knows no browser at all yet (created before this was recorded): that first one is simply recorded.
 */

/** 32 random bytes, base64url: the browser cookie's value. */
export const newBrowserId = () => randomBytes(32).toString('base64url');

/** A browser id as newBrowserId makes them; anything else in the cookie is ignored (and replaced). */
export const isBrowserId = (value: string | undefined): value is string =>
  value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);

const hashBrowserId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Records `browserId` as one of the account's browsers (or refreshes its last_seen_at), inside the caller's
 * transaction. Returns true when the browser is new to an account that already knew another one: the caller then
 * tells the owner. One statement, reading the account's browsers as they were before it. Two sign-ins from the
 * same new browser at the same moment may both see it as new (a repeated notice, never a missed one).
 */
export async function recordBrowser(tx: Db, userId: string, browserId: string): Promise<boolean> {
  const hash = hashBrowserId(browserId);
  const result = await tx.execute(sql`
    with before as (
      select browser_hash from ${knownBrowsers} where user_id = ${userId}
    ), up as (
      insert into ${knownBrowsers} (user_id, browser_hash) values (${userId}, ${hash})
      on conflict (user_id, browser_hash) do update set last_seen_at = now()
    )
    select exists (select 1 from before) and not exists (select 1 from before where browser_hash = ${hash}) as unseen`);
  return rowsOf<{ unseen: boolean }>(result)[0]?.unseen === true;
}
