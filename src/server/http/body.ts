import { z } from 'zod';

/**
 * The same object schema, answering `message` when the body is not an object at all (an array, a number, null),
 * instead of zod's technical "expected object" text. Field rules and their order are untouched.
 */
export function objectBody<S extends z.ZodRawShape>(schema: z.ZodObject<S>, message: string) {
  return z.object(schema.shape, { error: message });
}
