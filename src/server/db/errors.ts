/** The SQLSTATE of a driver error; drizzle wraps driver errors, so it may sit on the error or on its cause. */
export function sqlState(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 3;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The code of a refusal a database function raised (SQLSTATE RR409, the code as its message: rr_booking_move), or
 * undefined for any other error.
 */
export function refusalCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 3;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'RR409' && typeof message === 'string') return message;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === '23505';
}

/**
 * Input the database itself refused as data: class 22 (data exception: bad characters, out-of-range numbers or
 * dates, too-long strings) and CHECK violations. The schemas should catch these first; this keeps any gap a 400.
 */
export function isBadDataError(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('22') || state === '23514');
}
