import { z } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import { errorBodySchema } from '../../shared/errors';

// The shared envelope's own fields, in an object made after @hono/zod-openapi has added `.openapi` to zod (a zod 4
// schema only gains methods added before it was built, and the shared module may load first).
const errorSchema = z.object(errorBodySchema.shape).openapi('Error');

const descriptions: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in, or wrong credentials',
  403: 'Refused (foreign origin)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported body type',
  422: 'Understood but refused (e.g. a wrong delivery code)',
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
