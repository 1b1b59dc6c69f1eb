/** PostgreSQL text cannot hold U+0000; refuse it in every text field with one clear message. */
export const NUL_MESSAGE = 'Text must not contain null characters';

export const noNul = (v: string) => !v.includes('\u0000');
