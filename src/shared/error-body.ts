/**
 * The error envelope `{ code, message }` (errorBodySchema in errors.ts) checked by hand: the API client reads every
 * refusal with this, and a zod import there would put all of zod (about 23 KB compressed) into the first scripts of
 * every page that calls the API. error-body.test.ts keeps the two in agreement.
 */
export function isErrorBody(value: unknown): value is { code: string; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && code.length > 0 && typeof message === 'string';
}
