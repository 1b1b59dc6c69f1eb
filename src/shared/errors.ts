/**
 * Stable error codes returned by the API as `{ code, message }`.
 * The client branches on `code`; `message` is for people.
 */
export const ERROR_CODES = [
  'validation_error',
  'malformed_json',
  'unsupported_media_type',
  'unauthenticated',
  'forbidden_origin',
  'not_found',
  'method_not_allowed',
  'email_taken',
  'invalid_credentials',
  'too_many_requests',
  'payload_too_large',
  'request_unavailable',
  'already_accepted',
  'own_request',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorBody {
  code: ErrorCode | (string & {});
  message: string;
}
