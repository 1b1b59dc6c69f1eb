import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { sendError } from './error-status';
import type { AppEnv } from './types';

/**
 * A router whose zod validation failures answer 400 `{ code: 'validation_error', message }` with the first
 * issue's message: the same message the browser form shows for the same input.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const error = result.error as ZodError;
        const message = error.issues[0]?.message ?? 'Please check your input';
        return sendError(c, 'validation_error', message);
      }
    },
  });
}
