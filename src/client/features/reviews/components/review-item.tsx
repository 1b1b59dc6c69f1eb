import { Link } from 'react-router';
import { profilePath } from '../../../../shared/routes';
import type { Review } from '../../../../shared/reviews';
import { formatInstant } from '@/lib/format';
import { Stars } from './stars';

const ROLE = { driver: 'Driver', requester: 'Requester' } as const;

/**
 * One published review, as a profile and a booking page show it: who wrote it (linking to their profile) and in
 * which role, the stars, the comment, the date and the reviewed person's reply.
 */
export function ReviewItem({ review }: { review: Review }) {
  const at = review.published_at ?? review.created_at;
  return (
    <article className="space-y-2 rounded-md border p-4" aria-label={`Review by ${review.reviewer.full_name}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link to={profilePath(review.reviewer.id)} className="font-medium text-primary underline underline-offset-4">
          {review.reviewer.full_name}
        </Link>
        <span className="text-sm text-muted-foreground">{ROLE[review.reviewer_role]}</span>
        <Stars rating={review.rating} />
        <time dateTime={at} className="text-sm text-muted-foreground">
          {formatInstant(at)}
        </time>
      </div>
      {review.comment && <p className="whitespace-pre-wrap break-words">{review.comment}</p>}
      {review.reply && (
        <div className="ml-4 border-l-2 pl-3">
          <p className="text-sm font-medium">Reply from {review.reviewee.full_name}</p>
          <p className="whitespace-pre-wrap break-words text-sm">{review.reply.body}</p>
        </div>
      )}
    </article>
  );
}
