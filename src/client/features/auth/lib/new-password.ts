import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export { NEW_PASSWORD_HINT } from './new-password-hint';

/**
 * A resolver for a form that sets a password. The common-password list is fetched on demand; should that fail (a
 * phone offline for a moment, a chunk gone after a deploy), the form still checks the spec's rules with
 * `rulesOnly`, and the server, which always applies the list, decides.
 */
export function newPasswordResolver<T extends FieldValues>(
  withCommonPasswordRule: z.ZodType<T, T>,
  rulesOnly: z.ZodType<T, T>,
): Resolver<T> {
  const full = zodResolver(withCommonPasswordRule) as unknown as Resolver<T>;
  const fallback = zodResolver(rulesOnly) as unknown as Resolver<T>;
  return async (...args) => {
    try {
      return await full(...args);
    } catch {
      return fallback(...args);
    }
  };
}
