import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingDetail } from '@shared/lifecycle';
import type { BookingReviews } from '@shared/reviews';
import { BookingDetailPage } from '@/features/bookings/components/booking-detail-page';
import { ADA, makeBookingDetail, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BookingReviewsSection } from './booking-reviews-section';
import { makeBookingReviews, makeReview } from './reviews.fixtures';

afterEach(() => vi.unstubAllGlobals());

/** Ada Field, the requester, signed in on her completed booking with Sam Lee, the driver. */
const completed = (over: Partial<BookingDetail> = {}) =>
  makeBookingDetail({ status: 'completed', my_role: 'requester', actions: [], ...over });

type Routes = Parameters<typeof stubApi>[0];

/** The section for `booking`, with `GET /bookings/:id/review` answering `reviews` (or what `reviews()` returns now). */
function renderSection(booking: BookingDetail, reviews: BookingReviews | (() => BookingReviews), routes: Routes = {}) {
  const current = typeof reviews === 'function' ? reviews : () => reviews;
  const calls = stubApi({
    'GET /auth/session': () => ({ body: sessionOf(ADA) }),
    'GET /blocks': () => ({ body: emptyPage }),
    [`GET /bookings/${booking.id}/review`]: () => ({ body: current() }),
    ...routes,
  });
  const user = userEvent.setup();
  const rendered = renderWithProviders(<BookingReviewsSection booking={booking} />);
  return { calls, user, ...rendered };
}

const reviewGets = (calls: ReturnType<typeof stubApi>, id: string) =>
  calls.filter((c) => c.method === 'GET' && c.path === `/bookings/${id}/review`);
const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.method === 'POST');
const toastTexts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
const stars = () => screen.getByRole('radiogroup', { name: 'Rating' });

describe('Booking reviews section', () => {
  it('renders nothing and asks nothing before the booking is completed', async () => {
    const booking = makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] });
    const calls = stubApi({
      'GET /auth/session': () => ({ body: sessionOf(SAM) }),
      'GET /blocks': () => ({ body: emptyPage }),
      [`GET /bookings/${booking.id}`]: () => ({ body: booking }),
      [`GET /bookings/${booking.id}/review`]: () => ({ body: makeBookingReviews({ state: 'not_completed' }) }),
    });
    renderWithProviders(<BookingDetailPage id={booking.id} />);
    await screen.findByRole('heading', { level: 1, name: 'Feed sacks' });
    await screen.findByRole('heading', { name: 'Timeline' });
    expect(screen.queryByRole('heading', { name: 'Leave a review' })).not.toBeInTheDocument();
    expect(reviewGets(calls, booking.id)).toHaveLength(0);
  });

  it('renders nothing when the server says it is not completed (yet)', async () => {
    const booking = completed();
    const { calls, client } = renderSection(booking, makeBookingReviews({ state: 'not_completed', closes_at: null }));
    await waitFor(() => expect(client.getQueryData(['bookings', 'detail', booking.id, 'reviews'])).toBeDefined());
    expect(reviewGets(calls, booking.id)).toHaveLength(1);
    expect(screen.queryAllByRole('heading')).toHaveLength(0);
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.queryByText(/review/i)).not.toBeInTheDocument();
  });

  it("on a completed booking's page, offers 'Leave a review' for the other person", async () => {
    const booking = completed();
    stubApi({
      'GET /auth/session': () => ({ body: sessionOf(ADA) }),
      'GET /blocks': () => ({ body: emptyPage }),
      [`GET /bookings/${booking.id}`]: () => ({ body: booking }),
      [`GET /bookings/${booking.id}/review`]: () => ({ body: makeBookingReviews() }),
    });
    renderWithProviders(<BookingDetailPage id={booking.id} />);
    const heading = await screen.findByRole('heading', { level: 2, name: 'Leave a review' });
    const section = screen.getByRole('region', { name: 'Leave a review' });
    expect(section).toContainElement(heading);
    expect(within(section).getByText('How was Sam Lee as the driver?')).toBeVisible();
    expect(within(section).getByRole('button', { name: 'Submit review' })).toBeVisible();
  });

  it('the rating is a labelled, required radio group of five stars and the comment is optional', async () => {
    renderSection(completed(), makeBookingReviews());
    await screen.findByRole('heading', { name: 'Leave a review' });
    expect(stars()).toHaveAttribute('aria-required', 'true');
    expect(
      within(stars())
        .getAllByRole('radio')
        .map((r) => r.getAttribute('aria-label')),
    ).toEqual(['1 star', '2 stars', '3 stars', '4 stars', '5 stars']);
    expect(
      within(stars())
        .getAllByRole('radio')
        .every((r) => r.getAttribute('aria-checked') === 'false'),
    ).toBe(true);
    expect(screen.getByLabelText('Comment')).toHaveAccessibleDescription('Optional, up to 1000 characters.');
  });

  it('arrow keys move the chosen star; the stars fill up to it', async () => {
    const { user } = renderSection(completed(), makeBookingReviews());
    // A quick tap: key-up comes before radix moves focus (a task later); the star it reaches is still chosen.
    const press = (key: string) => user.keyboard(`{${key}}`);
    await screen.findByRole('heading', { name: 'Leave a review' });
    await user.tab();
    expect(screen.getByRole('radio', { name: '1 star' })).toHaveFocus();
    await press('ArrowRight');
    await waitFor(() => expect(screen.getByRole('radio', { name: '2 stars' })).toHaveFocus());
    await waitFor(() => expect(screen.getByRole('radio', { name: '2 stars' })).toBeChecked());
    await press('ArrowRight');
    await press('ArrowRight');
    await waitFor(() => expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked());
    await press('ArrowLeft');
    const three = screen.getByRole('radio', { name: '3 stars' });
    await waitFor(() => expect(three).toBeChecked());
    expect(three).toHaveFocus();
    expect(screen.getByRole('radio', { name: '4 stars' })).not.toBeChecked();
    const filled = within(stars())
      .getAllByRole('radio')
      .map((r) => r.querySelector('svg')!.classList.contains('fill-amber-500'));
    expect(filled).toEqual([true, true, true, false, false]);
    // Tab leaves the group in one step.
    await user.tab();
    expect(screen.getByLabelText('Comment')).toHaveFocus();
  });

  it("refuses no rating with 'Please choose a rating', focuses the stars and sends nothing", async () => {
    const booking = completed();
    const { calls, user } = renderSection(booking, makeBookingReviews());
    await user.click(await screen.findByRole('button', { name: 'Submit review' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Please choose a rating')).toHaveLength(2);
    expect(stars()).toHaveAccessibleDescription('Please choose a rating');
    expect(stars()).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.getByRole('radio', { name: '1 star' })).toHaveFocus());
    expect(posts(calls)).toHaveLength(0);
  });

  it('refuses a comment over 1000 characters, with a counter near the limit', async () => {
    const booking = completed();
    const { calls, user } = renderSection(booking, makeBookingReviews());
    await user.click(await screen.findByRole('radio', { name: '5 stars' }));
    const comment = screen.getByLabelText('Comment');
    fireEvent.change(comment, { target: { value: 'x'.repeat(899) } });
    expect(screen.queryByText(/\/ 1000$/)).not.toBeInTheDocument();
    fireEvent.change(comment, { target: { value: 'x'.repeat(1001) } });
    expect(screen.getByText('1001 / 1000')).toHaveClass('text-destructive');
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Comment must be less than 1000 characters')).toHaveLength(2);
    expect(posts(calls)).toHaveLength(0);
  });

  it('submits {rating, comment}, toasts, and shows the returned state: my review, waiting for theirs', async () => {
    const booking = completed();
    let state = makeBookingReviews();
    const mine = makeReview({ booking_id: booking.id, rating: 4, comment: 'Careful driver', published_at: null });
    const { calls, user } = renderSection(booking, () => state, {
      [`POST /bookings/${booking.id}/review`]: () => {
        state = { ...state, mine };
        return { status: 201, body: state };
      },
    });
    await user.click(await screen.findByRole('radio', { name: '4 stars' }));
    await user.type(screen.getByLabelText('Comment'), '  Careful driver ');
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByText('Review submitted')).toBeVisible();
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      [`/bookings/${booking.id}/review`, { rating: 4, comment: 'Careful driver' }],
    ]);
    const heading = await screen.findByRole('heading', { level: 3, name: 'Your review' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('heading', { level: 2, name: 'Reviews' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Submit review' })).not.toBeInTheDocument();
    const item = screen.getByRole('article', { name: 'Review by Ada Field' });
    expect(within(item).getByRole('img', { name: '4 stars' })).toBeVisible();
    expect(within(item).getByText('Careful driver')).toBeVisible();
    expect(
      screen.getByText('Sam Lee can see your review once they have reviewed you, or on May 15, 2026.'),
    ).toBeVisible();
    // The answer replaced the cached state: nothing was loaded again.
    expect(reviewGets(calls, booking.id)).toHaveLength(1);
  });

  it("sends a review without a comment as comment null and shows 'Submitting...' meanwhile", async () => {
    const booking = completed();
    let answer: (value: { status: number; body: BookingReviews }) => void = () => {};
    const { calls, user } = renderSection(booking, makeBookingReviews(), {
      [`POST /bookings/${booking.id}/review`]: () => new Promise((resolve) => (answer = resolve)),
    });
    await user.click(await screen.findByRole('radio', { name: '1 star' }));
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByRole('button', { name: 'Submitting...' })).toBeDisabled();
    expect(posts(calls)[0]?.body).toEqual({ rating: 1, comment: null });
    answer({
      status: 201,
      body: makeBookingReviews({
        mine: makeReview({ booking_id: booking.id, rating: 1, comment: null, published_at: null }),
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Your review' })).toBeVisible();
  });

  it('already reviewed: shows my review and when they will see it', async () => {
    const booking = completed();
    renderSection(
      booking,
      makeBookingReviews({ mine: makeReview({ booking_id: booking.id, rating: 5, published_at: null }) }),
    );
    expect(await screen.findByRole('heading', { name: 'Your review' })).toBeVisible();
    expect(screen.getByRole('img', { name: '5 stars' })).toBeVisible();
    expect(
      screen.getByText('Sam Lee can see your review once they have reviewed you, or on May 15, 2026.'),
    ).toBeVisible();
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "Sam Lee's review" })).not.toBeInTheDocument();
  });

  it('the other has reviewed me first: says so above the form, without their review', async () => {
    const booking = completed({ my_role: 'driver' });
    renderSection(booking, makeBookingReviews({ other_reviewed: true }));
    const section = await screen.findByRole('region', { name: 'Leave a review' });
    expect(within(section).getByText('Ada Field has reviewed you. Leave your review to see theirs.')).toBeVisible();
    expect(within(section).getByRole('radiogroup', { name: 'Rating' })).toBeVisible();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('both published: shows both, and I (the reviewee) may reply once to theirs', async () => {
    const booking = completed();
    const mine = makeReview({ booking_id: booking.id });
    let theirs = makeReview({
      booking_id: booking.id,
      rating: 5,
      comment: 'Had the gate open for me.',
      reviewer: SAM,
      reviewer_role: 'driver',
      reviewee: ADA,
    });
    const { calls, user } = renderSection(booking, () => makeBookingReviews({ mine, theirs, other_reviewed: true }), {
      [`POST /reviews/${theirs.id}/reply`]: ({ body }) => {
        theirs = {
          ...theirs,
          reply: { body: (body as { body: string }).body, created_at: '2026-05-07T10:00:00.000Z' },
        };
        return { body: theirs };
      },
    });
    expect(await screen.findByRole('heading', { level: 3, name: "Sam Lee's review" })).toBeVisible();
    expect(screen.queryByText(/can see your review/)).not.toBeInTheDocument();
    const their = screen.getByRole('article', { name: 'Review by Sam Lee' });
    expect(within(their).getByText('Had the gate open for me.')).toBeVisible();
    expect(within(their).getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', `/dashboard/users/${SAM.id}`);
    // My own review has no reply form and no report action.
    const my = screen.getByRole('article', { name: 'Review by Ada Field' });
    expect(within(my).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(my).queryByRole('button')).not.toBeInTheDocument();

    await user.type(await within(their).findByLabelText('Reply'), 'Thank you, Sam!');
    await user.click(within(their).getByRole('button', { name: 'Post reply' }));
    expect(await screen.findByText('Reply posted')).toBeVisible();
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      [`/reviews/${theirs.id}/reply`, { body: 'Thank you, Sam!' }],
    ]);
    expect(await within(their).findByText('Reply from Ada Field')).toBeVisible();
    expect(within(their).getByText('Thank you, Sam!')).toBeVisible();
    expect(within(their).queryByLabelText('Reply')).not.toBeInTheDocument();
  });

  it("refuses an empty reply with 'Reply is required'", async () => {
    const booking = completed();
    const theirs = makeReview({ booking_id: booking.id, reviewer: SAM, reviewer_role: 'driver', reviewee: ADA });
    const { calls, user } = renderSection(
      booking,
      makeBookingReviews({ mine: makeReview({ booking_id: booking.id }), theirs, other_reviewed: true }),
    );
    await user.click(await screen.findByRole('button', { name: 'Post reply' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getByLabelText('Reply')).toHaveAccessibleDescription(/Reply is required/);
    expect(posts(calls)).toHaveLength(0);
  });

  it('closed without my review: says the period has ended and offers no form', async () => {
    renderSection(completed(), makeBookingReviews({ state: 'closed' }));
    expect(await screen.findByText('The review period for this delivery has ended.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Reviews' })).toBeVisible();
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit review' })).not.toBeInTheDocument();
  });

  it('closed with theirs published by the sweep: shows it with my reply form', async () => {
    const booking = completed();
    const theirs = makeReview({ booking_id: booking.id, reviewer: SAM, reviewer_role: 'driver', reviewee: ADA });
    renderSection(booking, makeBookingReviews({ state: 'closed', theirs, other_reviewed: true }));
    expect(await screen.findByText('The review period for this delivery has ended.')).toBeVisible();
    expect(screen.getByRole('heading', { name: "Sam Lee's review" })).toBeVisible();
    expect(await screen.findByLabelText('Reply')).toBeVisible();
  });

  it('a 409 already_reviewed toasts its text and reloads the section', async () => {
    const booking = completed();
    let state = makeBookingReviews();
    const { calls, user } = renderSection(booking, () => state, {
      [`POST /bookings/${booking.id}/review`]: () => {
        state = { ...state, mine: makeReview({ booking_id: booking.id, rating: 2, published_at: null }) };
        return { status: 409, body: { code: 'already_reviewed', message: 'Already reviewed.' } };
      },
    });
    await user.click(await screen.findByRole('radio', { name: '3 stars' }));
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    await waitFor(() =>
      expect(
        toastTexts().some((t) => t.includes('Error') && t.includes('You have already reviewed this delivery.')),
      ).toBe(true),
    );
    expect(await screen.findByRole('heading', { name: 'Your review' })).toBeVisible();
    expect(screen.getByRole('img', { name: '2 stars' })).toBeVisible();
    expect(reviewGets(calls, booking.id)).toHaveLength(2);
  });

  it("a 409 review_period_ended toasts the period's text", async () => {
    const booking = completed();
    const { user } = renderSection(booking, makeBookingReviews(), {
      [`POST /bookings/${booking.id}/review`]: () => ({
        status: 409,
        body: { code: 'review_period_ended', message: 'Ended.' },
      }),
    });
    await user.click(await screen.findByRole('radio', { name: '3 stars' }));
    await user.click(screen.getByRole('button', { name: 'Submit review' }));
    await waitFor(() =>
      expect(toastTexts().some((t) => t.includes('The review period for this delivery has ended.'))).toBe(true),
    );
  });
});
