/**
 * Idempotent writes (design.md 'Idempotent writes'): every unsafe request from the client carries an
 * `Idempotency-Key`; the server keeps (person, key) -> the answer for IDEMPOTENCY_TTL_HOURS, and a repeat of the
 * same request gets the stored answer (marked with IDEMPOTENT_REPLAY_HEADER) instead of running again. The same
 * key with another body is 422 'idempotency_key_reused'. docs/weak-signal.md tells the whole story.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on an answer that was stored from an earlier request with the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_TTL_HOURS = 24;

/** A key is 1 to 255 printable ASCII characters without spaces (the client sends a UUID). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_KEY_INVALID = 'The Idempotency-Key header must be 1 to 255 visible characters.';
export const IDEMPOTENCY_KEY_REUSED = 'This change was already sent with different details. Please try again.';
export const IDEMPOTENCY_IN_PROGRESS = 'This change is still being saved. Please wait a moment and check.';
/**
 * A repeat of a request whose answer held something shown only once (recovery codes, a set-up key):
 * that answer is never stored, so the repeat is told the change was made instead of being shown it again.
 */
export const IDEMPOTENCY_ANSWER_NOT_KEPT =
  'This was already done. What it showed is shown only once, so it cannot be shown again.';
