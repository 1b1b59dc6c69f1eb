import { z } from 'zod';
import { EARLY_ACCESS_TEXT } from './early-access';

/**
 * `GET` and `PUT /api/account/early-access` (issue 38, decision 035): Settings' 'Try new features first'.
 * A module of its own so the first screens that read src/shared/early-access.ts carry no zod.
 */
export const earlyAccessViewSchema = z.object({
  /** Early-access features are on for me now: Community and the switch on. */
  on: z.boolean(),
  /** The switch as I saved it; kept when my plan is no longer Community. */
  saved: z.boolean(),
  /** My plan includes early access (Community): only then can the switch be changed. */
  available: z.boolean(),
});
export type EarlyAccessView = z.infer<typeof earlyAccessViewSchema>;

/** The switch's new position. Anything but a boolean is a 400 and changes nothing. */
export const earlyAccessInputSchema = z.object({
  on: z.boolean({ error: EARLY_ACCESS_TEXT.badInput }),
});
export type EarlyAccessInput = z.infer<typeof earlyAccessInputSchema>;
