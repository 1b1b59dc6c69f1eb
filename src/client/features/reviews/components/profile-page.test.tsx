import { AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile, Review } from '@shared/reviews';
import { VERIFIED_BADGE_LABEL } from '@shared/verification';
import { ADA, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { ProfilePage } from './profile-page';

afterEach(() => vi.unstubAllGlobals());

const BEA = { id: '00000000-0000-4000-8000-0000000000be', full_name: 'Bea Nunez', verified: false, ambassador: false };

function makeProfile(over: Partial<Profile> = {}): Profile {
  return {
    ...ADA,
    about: null,
    member_since: '2026-11-15T12:00:00.000Z',
    deliveries_made: 7,
    requests_delivered: 3,
    rating: { count: 12, average: 4.8 },
    verification: { email: false, phone: false, id: false },
    verified: false,
    ambassador: false,
    ...over,
  };
}

/** A published review of Ada Field. */
function makeReview(over: Partial<Review> = {}): Review {
  return {
    id: uuid(),
    booking_id: uuid(),
    rating: 5,
    comment: 'On time and careful with the eggs.',
    reviewer: SAM,
    reviewer_role: 'requester',
    reviewee: ADA,
    created_at: '2026-12-01T09:00:00.000Z',
    published_at: '2026-12-02T09:00:00.000Z',
    reply: null,
    ...over,
  };
}

type Handler = Parameters<typeof stubApi>[0][string];

/** Sam Lee (or `me`) signed in, looking at Ada Field's profile. */
function renderProfile({
  profile = makeProfile(),
  reviews = () => ({ body: emptyPage }),
  me = SAM,
  id = ADA.id,
}: {
  profile?: Profile | Handler;
  reviews?: Handler;
  me?: { id: string; full_name: string };
  id?: string;
} = {}) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: sessionOf(me) }),
    [`GET /users/${id}`]: typeof profile === 'function' ? profile : () => ({ body: profile }),
    [`GET /users/${id}/reviews`]: reviews,
  });
  const user = userEvent.setup();
  renderWithProviders(<ProfilePage id={id} />);
  return { calls, user };
}

describe('Profile page', () => {
  it("lists the checks done ('Email verified', 'Phone verified'), without the badge while one is missing", async () => {
    renderProfile({ profile: makeProfile({ verification: { email: true, phone: true, id: false } }) });
    const checks = await screen.findByRole('region', { name: 'Verification' });
    expect(
      within(checks)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Email verified', 'Phone verified']);
    expect(within(checks).queryByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeNull();
  });

  it("shows the 'Verified' badge when all three are checked", async () => {
    renderProfile({
      profile: makeProfile({ verification: { email: true, phone: true, id: true }, verified: true }),
    });
    const checks = await screen.findByRole('region', { name: /Verification/ });
    expect(within(checks).getByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeVisible();
    expect(within(checks).getAllByRole('listitem')).toHaveLength(3);
  });

  it("shows Community's 'Ambassador' badge for a Community member only", async () => {
    renderProfile({ profile: makeProfile({ ambassador: true }) });
    expect(await screen.findByRole('img', { name: AMBASSADOR_BADGE_LABEL })).toBeVisible();
  });

  it("has no 'Ambassador' badge without Community", async () => {
    renderProfile({ profile: makeProfile() });
    await screen.findByRole('region', { name: /Verification/ });
    expect(screen.queryByRole('img', { name: AMBASSADOR_BADGE_LABEL })).not.toBeInTheDocument();
  });

  it("says 'No checks yet.' for someone with none", async () => {
    renderProfile();
    expect(await screen.findByText('No checks yet.')).toBeVisible();
  });

  it('shows the name, member since, deliveries, requests delivered and the rating', async () => {
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Field' })).toBeVisible();
    expect(screen.getByText('Member since November 2026')).toBeVisible();
    expect(screen.getByText('Deliveries made: 7')).toBeVisible();
    expect(screen.getByText('Requests delivered: 3')).toBeVisible();
    expect(screen.getByText('4.8 ★ · 12 reviews')).toBeVisible();
    // A screen reader hears the rating without the star sign.
    expect(screen.getByText('Rated 4.8 out of 5 from 12 reviews')).toHaveClass('sr-only');
    expect(document.title).toBe('Ada Field — RuralRoute');
    expect(screen.queryByText('This is how others see your profile.')).not.toBeInTheDocument();
  });

  it("says 'New member' and 'No reviews yet.' for someone nobody has reviewed", async () => {
    renderProfile({
      profile: makeProfile({ deliveries_made: 0, requests_delivered: 0, rating: { count: 0, average: null } }),
    });
    expect(await screen.findByText('New member')).toBeVisible();
    expect(screen.getByText('Deliveries made: 0')).toBeVisible();
    expect(screen.getByText('Requests delivered: 0')).toBeVisible();
    expect(await screen.findByText('No reviews yet.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Reviews' })).toBeVisible();
  });

  it("shows 'About' with the person's own words, line breaks kept, and nothing when they wrote none", async () => {
    renderProfile({ profile: makeProfile({ about: 'Farm on Hollow Rd.\nIn town most Tuesdays.' }) });
    const about = await screen.findByRole('region', { name: 'About' });
    expect(about).toHaveTextContent('Farm on Hollow Rd. In town most Tuesdays.');
    expect(within(about).getByText(/Farm on Hollow Rd/)).toHaveClass('whitespace-pre-line');
  });

  it('has no About section without words', async () => {
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Field' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'About' })).not.toBeInTheDocument();
  });

  it('says so on my own profile', async () => {
    renderProfile({ me: ADA });
    expect(await screen.findByText('This is how others see your profile.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Ada Field' })).toBeVisible();
  });

  it("lists the published reviews in the server's order: reviewer linking to their profile, role, stars, comment, date, reply", async () => {
    const newest = makeReview({
      reviewer: BEA,
      reviewer_role: 'driver',
      rating: 4,
      comment: 'Ready at the gate as agreed.',
      published_at: '2026-12-10T09:00:00.000Z',
      reply: { body: 'Thanks, Bea!', created_at: '2026-12-11T09:00:00.000Z' },
    });
    const older = makeReview();
    renderProfile({ reviews: () => ({ body: { items: [newest, older], next_cursor: null } }) });
    const list = await screen.findByRole('list', { name: 'Reviews' });
    const [first, second] = within(list).getAllByRole('listitem');
    const bea = within(first!);
    expect(bea.getByRole('link', { name: 'Bea Nunez' })).toHaveAttribute('href', `/dashboard/users/${BEA.id}`);
    expect(bea.getByText('Driver')).toBeVisible();
    expect(bea.getByRole('img', { name: '4 stars' })).toBeVisible();
    expect(bea.getByText('Ready at the gate as agreed.')).toBeVisible();
    expect(first!.querySelector('time')).toHaveAttribute('datetime', '2026-12-10T09:00:00.000Z');
    expect(bea.getByText('Reply from Ada Field')).toBeVisible();
    expect(bea.getByText('Thanks, Bea!')).toBeVisible();
    const sam = within(second!);
    expect(sam.getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', `/dashboard/users/${SAM.id}`);
    expect(sam.getByText('Requester')).toBeVisible();
    expect(sam.getByRole('img', { name: '5 stars' })).toBeVisible();
    expect(screen.queryByText('No reviews yet.')).not.toBeInTheDocument();
  });

  it("loads 20 reviews at a time: 'Load more' fetches the next page by its cursor", async () => {
    const firstPage = Array.from({ length: 20 }, (_, i) => makeReview({ comment: `Review ${i}` }));
    const { calls, user } = renderProfile({
      reviews: (call) =>
        call.path.includes('cursor=next')
          ? { body: { items: [makeReview({ comment: 'Review 20' })], next_cursor: null } }
          : { body: { items: firstPage, next_cursor: 'next' } },
    });
    await screen.findByText('Review 19');
    const reviewCalls = () => calls.filter((c) => c.path.startsWith(`/users/${ADA.id}/reviews`));
    expect(reviewCalls().map((c) => c.path)).toEqual([`/users/${ADA.id}/reviews?limit=20`]);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Review 20')).toBeVisible();
    expect(reviewCalls().map((c) => c.path)).toEqual([
      `/users/${ADA.id}/reviews?limit=20`,
      `/users/${ADA.id}/reviews?limit=20&cursor=next`,
    ]);
    expect(within(screen.getByRole('list', { name: 'Reviews' })).getAllByRole('listitem')).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('an unknown or suspended person is a clear not-found page, without loading reviews', async () => {
    const { calls } = renderProfile({
      profile: () => ({ status: 404, body: { code: 'not_found', message: 'Not found' } }),
    });
    expect(await screen.findByRole('heading', { name: 'Profile not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(document.title).toBe('Profile not found — RuralRoute');
    expect(calls.some((c) => c.path.includes('/reviews'))).toBe(false);
  });

  it('an id that is not a uuid is not found without asking the server', async () => {
    const { calls } = renderProfile({ id: 'nope' });
    expect(screen.getByRole('heading', { name: 'Profile not found' })).toBeVisible();
    expect(calls.filter((c) => c.path.startsWith('/users'))).toHaveLength(0);
  });

  it('shows a loading state, then a failed load with a retry that works', async () => {
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user } = renderProfile({
      profile: async () => {
        await gate;
        if (fail) return { status: 500, body: { code: 'internal', message: 'Something went wrong' } };
        return { body: makeProfile() };
      },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading this profile...');
    release();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load this profile.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Field' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });
});
