import { z } from '@hono/zod-openapi';
import type { ZodType } from 'zod';

export const errorSchema = z.object({ code: z.string(), message: z.string() }).openapi('Error');

const descriptions: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in, or wrong credentials',
  403: 'Refused (foreign origin)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  429: 'Too many attempts; see Retry-After',
};

export function errorResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: descriptions[s] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  ) as Record<S, { description: string; content: { 'application/json': { schema: typeof errorSchema } } }>;
}

/** A required JSON body: without `required`, a request with no Content-Type would skip validation. */
export function jsonBody<T extends ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}
