import QRCode from 'qrcode';
import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '../../shared/two-factor';
import { DomainError } from '../core/domain-error';
import { enforceLimit, tooManyMessage, type AttemptCounter, type WindowLimit } from '../limits';
import type { Caller, IdentityChecks } from '../account';

/**
 * What Settings 'Two-factor authentication' needs from the stored settings (settings.ts; app-routes.ts passes
 * it in): the stored side, with its 409 `two_factor_state` and 400 `wrong_code` refusals.
 */
export interface TwoFactorSettingsPort {
  status(userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }>;
  setUp(userId: string, email: string): Promise<{ secret: string; otpauthUrl: string }>;
  /** This session aal2, the user's others pending again, on every instance; returns the new recovery codes. */
  enable(userId: string, sessionId: string, code: string): Promise<string[]>;
  disable(userId: string, code: string): Promise<void>;
  renewRecoveryCodes(userId: string): Promise<string[]>;
}

export interface TwoFactorServiceOptions {
  counter: AttemptCounter;
  /** Wrong codes per account, counted with those of identity.verify (one 'code-check' count per account). */
  limit: WindowLimit;
}

/**
 * Settings 'Two-factor authentication'. Set-up, turning it off and new recovery codes need a recent check
 * (403 `reauth_required`, identity.ts); wrong codes of 'enable' and 'disable' are counted per account like every
 * other code a signed-in user types, so a 6-digit code cannot be guessed here either.
 */
export function createTwoFactorService(
  settings: TwoFactorSettingsPort,
  identity: IdentityChecks,
  { counter, limit }: TwoFactorServiceOptions,
) {
  /** Runs a code check counted per account: only a wrong code counts; a right one forgets the earlier ones. */
  async function counted<T>(userId: string, check: () => Promise<T>): Promise<T> {
    const hit = await enforceLimit(counter, 'code-check', userId, limit, tooManyMessage);
    try {
      const value = await check();
      await counter.clear('code-check', userId);
      return value;
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'wrong_code')) await counter.release(hit);
      throw err;
    }
  }

  async function status(caller: Caller): Promise<TwoFactorStatus> {
    const [stored, recent] = await Promise.all([settings.status(caller.userId), identity.isRecent(caller)]);
    return { enabled: stored.enabled, recovery_codes_left: stored.recoveryCodesLeft, recently_checked: recent };
  }

  async function setUp(caller: Caller, email: string): Promise<TwoFactorSetup> {
    await identity.requireRecent(caller);
    const { secret, otpauthUrl } = await settings.setUp(caller.userId, email);
    const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return {
      secret,
      otpauth_url: otpauthUrl,
      qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  async function enable(caller: Caller, code: string): Promise<RecoveryCodes> {
    const codes = await counted(caller.userId, () => settings.enable(caller.userId, caller.sessionId, code));
    return { recovery_codes: codes };
  }

  async function disable(caller: Caller, code: string): Promise<void> {
    await identity.requireRecent(caller);
    await counted(caller.userId, () => settings.disable(caller.userId, code));
  }

  async function renewRecoveryCodes(caller: Caller): Promise<RecoveryCodes> {
    await identity.requireRecent(caller);
    return { recovery_codes: await settings.renewRecoveryCodes(caller.userId) };
  }

  return { status, setUp, enable, disable, renewRecoveryCodes };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
