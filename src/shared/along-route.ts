import { z } from 'zod';
import { deliveryRequestSchema } from './marketplace';

/**
 * One request of a ride's 'Requests along this route' (`GET /api/rides/:id/along-route`, contract in places.ts).
 * A separate module from places.ts because it builds on marketplace.ts, which builds on places.ts (its place ids).
 */
export const alongRouteRequestSchema = deliveryRequestSchema.extend({
  /**
   * The miles the detour adds: origin -> pickup -> delivery -> destination, less origin -> destination. Null only
   * for a request its requester asked this ride to carry although its places are free text.
   */
  detour_miles: z.number().nullable(),
  /** Its requester asked this ride to carry it ('Asked you'); such requests come first. */
  asked: z.boolean(),
});
export type AlongRouteRequest = z.infer<typeof alongRouteRequestSchema>;

export const alongRoutePageSchema = z.object({
  items: z.array(alongRouteRequestSchema),
  next_cursor: z.string().nullable(),
  /** The corridor the list was computed with (the query's, or the default). */
  corridor_miles: z.number(),
});
export type AlongRoutePage = z.infer<typeof alongRoutePageSchema>;
