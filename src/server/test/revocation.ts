import { SESSION_REVOKED } from '../auth/service';
import type { Database } from '../db/client';

/** The notification reaches another instance's LISTEN connection in milliseconds on one host; 1 s is the bound. */
export const DELIVERY_BOUND_MS = 1_000;

/** Resolves true when `payload` arrives on this database's `session_revoked` LISTEN connection, false after the bound. */
export function heard(database: Database, payload: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => void unlisten().then(() => resolve(false)), DELIVERY_BOUND_MS);
    const unlisten = database.notifications.listen(SESSION_REVOKED, (p) => {
      if (p !== payload) return;
      clearTimeout(timer);
      void unlisten().then(() => resolve(true));
    });
  });
}
