import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../../shared/errors';

/** An expected failure with a stable code and a message safe to show to users. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const unauthenticated = () => new AppError(401, 'unauthenticated', 'Please sign in to continue.');
