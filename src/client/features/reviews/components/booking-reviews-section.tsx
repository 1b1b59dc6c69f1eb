import { useEffect, useId, useRef } from 'react';
import type { BookingDetail } from '@shared/lifecycle';
import { REVIEW_TEXT, type BookingReviews } from '@shared/reviews';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { useBookingReviews } from '../api/reviews';
import { ReviewForm } from './review-form';
import { ReviewItem } from './review-item';

type ReviewedBooking = Pick<BookingDetail, 'id' | 'status' | 'my_role' | 'driver' | 'requester'>;

const ROLE_NOUN = { driver: 'driver', requester: 'requester' } as const;

/** The day the review period closes, in the reader's timezone: 'May 15, 2026'. */
function closingDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
}

/**
 * The review part of a booking page, for its two people once it is completed (nothing before): 'Leave a review'
 * while the period is open and I have not; then 'Your review' (with when the other person will see it while it is
 * unpublished) and, once published, theirs with my 'Reply'; 'The review period for this delivery has ended.' when I
 * let it pass. Double-blind: the server sends their review only once it is published.
 */
export function BookingReviewsSection({ booking }: { booking: ReviewedBooking }) {
  if (booking.status !== 'completed') return null;
  return <LoadedReviews booking={booking} />;
}

function LoadedReviews({ booking }: { booking: ReviewedBooking }) {
  const query = useBookingReviews(booking.id);
  const headingId = useId();
  // After submitting, the form is gone: focus goes to 'Your review', which says what happened.
  const mineHeading = useRef<HTMLHeadingElement>(null);
  const focusMine = useRef(false);
  const mine = query.data?.mine;
  useEffect(() => {
    if (!mine || !focusMine.current) return;
    focusMine.current = false;
    mineHeading.current?.focus();
  }, [mine]);

  if (query.isPending) return null;
  if (query.isError) {
    // 404: not one of its two people (the booking page says so already).
    if (query.error instanceof ApiError && query.error.status === 404) return null;
    return (
      <p className="text-sm text-muted-foreground">The reviews could not be loaded. Reload the page to try again.</p>
    );
  }
  const reviews: BookingReviews = query.data;
  if (reviews.state === 'not_completed') return null;

  const otherRole = booking.my_role === 'driver' ? 'requester' : 'driver';
  const name = booking[otherRole].full_name;
  const leaving = reviews.state === 'open' && !reviews.mine;

  return (
    <section aria-labelledby={headingId}>
      <Card>
        <CardHeader>
          <CardTitle id={headingId}>{leaving ? REVIEW_TEXT.leave : 'Reviews'}</CardTitle>
          {leaving ? <CardDescription>{`How was ${name} as the ${ROLE_NOUN[otherRole]}?`}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-4">
          {leaving ? (
            <>
              {reviews.other_reviewed ? <p>{`${name} has reviewed you. Leave your review to see theirs.`}</p> : null}
              <ReviewForm bookingId={booking.id} onSubmitted={() => (focusMine.current = true)} />
            </>
          ) : null}
          {reviews.state === 'closed' && !reviews.mine ? <p>{REVIEW_TEXT.periodEnded}</p> : null}
          {reviews.mine ? (
            <div className="space-y-2">
              <h3 ref={mineHeading} tabIndex={-1} className="font-semibold focus:outline-none">
                Your review
              </h3>
              <ReviewItem review={reviews.mine} />
              {reviews.mine.published_at === null && reviews.state === 'open' && reviews.closes_at ? (
                <p className="text-sm text-muted-foreground">
                  {`${name} can see your review once they have reviewed you, or on ${closingDay(reviews.closes_at)}.`}
                </p>
              ) : null}
            </div>
          ) : null}
          {reviews.theirs ? (
            <div className="space-y-2">
              <h3 className="font-semibold">{`${name}'s review`}</h3>
              <ReviewItem review={reviews.theirs} />
            </div>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}
