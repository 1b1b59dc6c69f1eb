import { createContext, useContext } from 'react';
import type { ConfirmIdentityInput } from '@shared/two-factor';
import { api, ApiError } from '@/lib/api-client';

/**
 * The re-check of sensitive actions (src/shared/two-factor.ts): an action without a password field (two-factor set-up
 * and turn off, new recovery codes, download my data) is refused with 403 `reauth_required` when this session's last
 * password (+ code) check is older than 10 minutes. `withRecentCheck(action)` runs the action; on that refusal it
 * asks 'Confirm it's you' (ConfirmIdentityProvider), then runs the action again.
 */
export interface RecentCheck {
  /**
   * Runs `action`, re-checking the user first when the server asks. Rejects with RecheckCancelled when the user
   * cancels the check, and with the action's own error otherwise.
   */
  withRecentCheck: <T>(action: () => Promise<T>) => Promise<T>;
}

/** The user closed 'Confirm it's you': the action ends quietly (no toast, nothing changed). */
export class RecheckCancelled extends Error {
  constructor() {
    super('The identity check was cancelled');
    this.name = 'RecheckCancelled';
  }
}

export const RecentCheckContext = createContext<RecentCheck | null>(null);

/** The re-check of the Settings page (ConfirmIdentityProvider around it). */
export function useRecentCheck(): RecentCheck {
  const check = useContext(RecentCheckContext);
  if (!check) throw new Error('useRecentCheck needs a ConfirmIdentityProvider around it');
  return check;
}

export function isReauthRequired(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'reauth_required';
}

/** POST /account/confirm-identity -> 204: this session counts as recently checked. */
export function confirmIdentity(input: ConfirmIdentityInput) {
  return api<void>('/account/confirm-identity', { method: 'POST', body: input });
}
