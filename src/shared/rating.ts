import { z } from 'zod';

/**
 * A person's rating as every list shows it (Browse cards, Offers, profiles): kept on their profile row by the
 * transaction that publishes reviews of them (src/server/reviews), never computed per page view.
 */
export const ratingSummarySchema = z.object({
  /** Published reviews of the person. */
  count: z.number().int().min(0),
  /** Their average to one decimal (4.8), or null when there are none. */
  average: z.number().min(1).max(5).nullable(),
});
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

export const NEW_MEMBER = 'New member';

/** '4.8 ★ · 12 reviews', '5.0 ★ · 1 review', or 'New member' when nobody has reviewed the person yet. */
export function ratingText(rating: RatingSummary): string {
  if (rating.count === 0 || rating.average === null) return NEW_MEMBER;
  return `${rating.average.toFixed(1)} ★ · ${rating.count} ${rating.count === 1 ? 'review' : 'reviews'}`;
}

/** The same for a screen reader, without the star sign: 'Rated 4.8 out of 5 from 12 reviews'. */
export function ratingLabel(rating: RatingSummary): string {
  if (rating.count === 0 || rating.average === null) return NEW_MEMBER;
  return `Rated ${rating.average.toFixed(1)} out of 5 from ${rating.count} ${rating.count === 1 ? 'review' : 'reviews'}`;
}

/** From the two counters on the profile row: the average rounded half up to one decimal. */
export function ratingFrom(count: number, sum: number): RatingSummary {
  return { count, average: count > 0 ? Math.round((sum * 10) / count) / 10 : null };
}
