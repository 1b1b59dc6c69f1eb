import { notFound } from '../core/domain-error';

/**
 * Validation hook for routes with an `:id` path parameter: an id that is not a uuid names no row, so it answers
 * the same 404 as an unknown id (or another user's), never a 400 that would tell the two apart.
 */
export function notFoundOnBadId(message: string) {
  return (result: { success: boolean }): undefined => {
    if (!result.success) throw notFound(message);
    return undefined;
  };
}
