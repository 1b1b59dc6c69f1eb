import { DomainError, notFound } from '../core/domain-error';
import type { ValidationResult } from './validation';
import { firstIssueMessage } from './validation';

/**
 * Validation hook for routes with an `:id` path parameter: an id that is not a uuid names no row, so it answers
 * the same 404 as an unknown id (or another user's), never a 400 that would tell the two apart. The route's other
 * parts (a body) keep their 400 `validation_error` with the first issue's message.
 */
export function notFoundOnBadId(message: string) {
  return (result: ValidationResult): undefined => {
    if (result.success) return undefined;
    if (result.target === 'param') throw notFound(message);
    throw new DomainError('validation_error', firstIssueMessage(result));
  };
}
