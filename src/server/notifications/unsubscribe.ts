import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { isSecurityType, OPTIONAL_NOTIFICATION_TYPES, type NotificationType } from '../../shared/notifications';
import type { Db } from '../db/client';
import { appSecrets } from '../db/schema';

type OptionalNotificationType = (typeof OPTIONAL_NOTIFICATION_TYPES)[number];

/** Where an unsubscribe link's token is POSTed, as the app serves them (no session, no Origin needed). */
export const UNSUBSCRIBE_API_PATH = '/api/notifications/unsubscribe';
export const RESUBSCRIBE_API_PATH = '/api/notifications/resubscribe';

/** The app_secrets row holding the signing key of unsubscribe links. */
export const UNSUBSCRIBE_SECRET = 'unsubscribe';

/** What an unsubscribe token stands for: this person's e-mails of this (optional) type. */
export interface UnsubscribeClaim {
  userId: string;
  type: OptionalNotificationType;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const OPTIONAL = new Set<string>(OPTIONAL_NOTIFICATION_TYPES);

/**
 * Signed unsubscribe tokens: `base64url(userId:type) . base64url(HMAC-SHA256(key, payload))`. The link
 * in an e-mail works without signing in, so the token is its whole authority: it names one person and one type and
 * cannot be altered without the key. The key is random, made by whichever instance needs it first and shared
 * through app_secrets (the insert does nothing when another instance won, and every instance reads the row back),
 * then kept in memory. Tokens do not expire: an old mail's link keeps working, and it can only switch one e-mail
 * type of its own recipient off or on again.
 */
export function createUnsubscribeTokens(db: Db) {
  let key: Promise<Buffer> | null = null;

  async function loadKey(): Promise<Buffer> {
    await db
      .insert(appSecrets)
      .values({ name: UNSUBSCRIBE_SECRET, value: randomBytes(32).toString('base64url') })
      .onConflictDoNothing({ target: appSecrets.name });
    const [row] = await db
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, UNSUBSCRIBE_SECRET));
    if (!row) throw new Error('the unsubscribe key was not stored');
    return Buffer.from(row.value, 'base64url');
  }

  /** The key, loaded once per app; a failed load is tried again by the next caller. */
  function keyOf(): Promise<Buffer> {
    key ??= loadKey().catch((err: unknown) => {
      key = null;
      throw err;
    });
    return key;
  }

  const macOf = (k: Buffer, payload: string) => createHmac('sha256', k).update(`unsubscribe:${payload}`).digest();

  return {
    /** The token of `userId`'s e-mails of `type`; security types have none (they cannot be switched off). */
    async sign(userId: string, type: NotificationType): Promise<string> {
      if (isSecurityType(type)) throw new Error(`security notifications (${type}) have no unsubscribe token`);
      const payload = `${userId}:${type}`;
      const mac = macOf(await keyOf(), payload);
      return `${Buffer.from(payload).toString('base64url')}.${mac.toString('base64url')}`;
    },

    /** What a token stands for, or null when it is malformed, altered, or names no optional type. */
    async verify(token: string): Promise<UnsubscribeClaim | null> {
      const parts = token.split('.');
      if (parts.length !== 2 || !parts.every((p) => BASE64URL.test(p))) return null;
      const payload = Buffer.from(parts[0]!, 'base64url').toString('utf8');
      const given = Buffer.from(parts[1]!, 'base64url');
      const expected = macOf(await keyOf(), payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const [userId, type, ...rest] = payload.split(':');
      if (rest.length || !userId || !UUID.test(userId) || !type || !OPTIONAL.has(type)) return null;
      return { userId, type: type as OptionalNotificationType };
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
