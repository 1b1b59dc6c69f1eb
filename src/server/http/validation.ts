import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { sendError } from './error-status';
import type { AppEnv } from './types';

/** What a validation hook is told: @hono/zod-openapi passes the zod result with the part of the request checked. */
export interface ValidationResult {
  success: boolean;
  target: string;
  error?: unknown;
}

export const firstIssueMessage = (result: ValidationResult): string =>
  (result.error as ZodError | undefined)?.issues[0]?.message ?? 'Please check your input';

/** 400 `{ code: 'validation_error', message }` with the first issue's message, for a failed validation. */
export function answerInvalid(result: ValidationResult, c: Context): Response | undefined {
  if (result.success) return undefined;
  return sendError(c, 'validation_error', firstIssueMessage(result));
}

/**
 * A router whose zod validation failures answer 400 `{ code: 'validation_error', message }` with the first
 * issue's message: the same message the browser form shows for the same input.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: answerInvalid });
}
