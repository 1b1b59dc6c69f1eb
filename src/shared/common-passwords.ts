import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * The heavy half of the common-password rule: zxcvbn-ts with language-common's list of about 49,000 leaked
 * passwords (about 200 KB compressed) and keyboard layouts. Never import this statically from client code: it is
 * loaded on demand through password-rules.ts so it stays out of the page's initial scripts (decision record 012).
 */

/**
 * zxcvbn's score 1 ends at 10^6 guesses: a password it can find within the first million guesses, built from the
 * list's entries (any case, l33t, reversed) plus keyboard walks, repeats, sequences and short add-ons, is "common".
 */
const MAX_COMMON_SCORE = 1;

/**
 * Only the first 64 characters are scored: no listed password is longer than 20, and the estimate's cost grows
 * with length (about 50 ms for 64 hostile characters, 0.5 s for 256), which a sign-up must not block on.
 */
const SCORED_LENGTH = 64;

let zxcvbn: ZxcvbnFactory | undefined;

export function isCommonPasswordNow(password: string): boolean {
  // Built on first use: ranking the list takes about 30 ms, paid once per process or page.
  zxcvbn ??= new ZxcvbnFactory({
    dictionary: { 'passwords-common': dictionary['passwords-common'] },
    graphs: adjacencyGraphs,
    maxLength: SCORED_LENGTH,
  });
  return zxcvbn.check(password).score <= MAX_COMMON_SCORE;
}
