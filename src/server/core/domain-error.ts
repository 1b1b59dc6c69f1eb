import type { ErrorCode } from '../../shared/errors';

/** Every stable API code except `internal_error`, which only the error handler uses, for unexpected failures. */
export type DomainErrorCode = Exclude<ErrorCode, 'internal_error'>;

export interface DomainErrorDetails {
  /** When a refused attempt may be tried again, in seconds (`too_many_requests`, `delivery_code_locked`). */
  retryAfterSeconds?: number;
}

/**
 * An expected refusal: a stable code the client branches on and a message safe to show to people. It carries no
 * HTTP status: http/error-status.ts is the one table that turns a code into a status (and headers), so services
 * stay free of HTTP and a code always gets the same status.
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message = 'Not found') => new DomainError('not_found', message);
export const unauthenticated = () => new DomainError('unauthenticated', 'Please sign in to continue.');
