import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Review } from '@shared/reviews';
import { ADA, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { ReviewItem } from './review-item';
import { makeReview } from './reviews.fixtures';

afterEach(() => vi.unstubAllGlobals());

const KIM = { id: '00000000-0000-4000-8000-0000000000c1', full_name: 'Kim Park' };

/** `review` (Ada Field's of Sam Lee unless given) as `viewer` sees it (nobody signed in when null). */
function renderItem(
  viewer: { id: string; full_name: string } | null,
  review: Review = makeReview(),
  routes: Parameters<typeof stubApi>[0] = {},
) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: viewer ? sessionOf(viewer) : { user: null, session: null } }),
    ...routes,
  });
  const user = userEvent.setup();
  const rendered = renderWithProviders(<ReviewItem review={review} />);
  return { calls, user, ...rendered };
}

/** Waits until the session has loaded, so what is absent is absent for good. */
const sessionLoaded = (client: ReturnType<typeof renderItem>['client']) =>
  waitFor(() => expect(client.getQueryState(['auth', 'session'])?.status).toBe('success'));

const article = () => screen.getByRole('article', { name: 'Review by Ada Field' });

describe('Review item', () => {
  it('shows the reviewer (linking to their profile), role, stars, comment and date', async () => {
    const { client } = renderItem(KIM);
    await sessionLoaded(client);
    expect(within(article()).getByRole('link', { name: 'Ada Field' })).toHaveAttribute(
      'href',
      `/dashboard/users/${ADA.id}`,
    );
    expect(within(article()).getByText('Requester')).toBeVisible();
    expect(within(article()).getByRole('img', { name: '4 stars' })).toBeVisible();
    expect(within(article()).getByText('On time and careful with the sacks.')).toBeVisible();
    expect(within(article()).getByText(/May 6, 2026/)).toHaveAttribute('datetime', '2026-05-06T10:00:00.000Z');
  });

  it('the reviewee gets the reply form under a published review without a reply', async () => {
    renderItem(SAM);
    expect(await within(article()).findByLabelText('Reply')).toBeVisible();
    expect(within(article()).getByRole('button', { name: 'Post reply' })).toBeVisible();
    // Sam is not its author, so he may report it too.
    expect(within(article()).getByRole('button', { name: 'Report review' })).toBeVisible();
  });

  it.each<[string, { id: string; full_name: string } | null, Partial<Review>]>([
    ['the author', ADA, {}],
    ['someone else', KIM, {}],
    ['nobody signed in', null, {}],
    ['the reviewee, once replied', SAM, { reply: { body: 'Thanks!', created_at: '2026-05-07T10:00:00.000Z' } }],
    ['the reviewee, while unpublished', SAM, { published_at: null }],
  ])('no reply form for %s', async (_case, viewer, over) => {
    const { client } = renderItem(viewer, makeReview(over));
    await sessionLoaded(client);
    expect(within(article()).queryByLabelText('Reply')).not.toBeInTheDocument();
    expect(within(article()).queryByRole('button', { name: 'Post reply' })).not.toBeInTheDocument();
  });

  it('shows the reply under the review', async () => {
    const { client } = renderItem(
      KIM,
      makeReview({ reply: { body: 'Thanks!', created_at: '2026-05-07T10:00:00.000Z' } }),
    );
    await sessionLoaded(client);
    expect(within(article()).getByText('Reply from Sam Lee')).toBeVisible();
    expect(within(article()).getByText('Thanks!')).toBeVisible();
  });

  it.each<[string, { id: string; full_name: string } | null, Partial<Review>]>([
    ['its author', ADA, {}],
    ['nobody signed in', null, {}],
    ['an unpublished review', SAM, { published_at: null }],
  ])("offers no 'Report review' to %s", async (_case, viewer, over) => {
    const { client } = renderItem(viewer, makeReview(over));
    await sessionLoaded(client);
    expect(within(article()).queryByRole('button', { name: 'Report review' })).not.toBeInTheDocument();
  });

  it("'Report review' sends the review and its author, then gives focus back", async () => {
    const review = makeReview();
    const { calls, user } = renderItem(KIM, review, { 'POST /reports': () => ({ status: 201, body: {} }) });
    const button = await within(article()).findByRole('button', { name: 'Report review' });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Report review by Ada Field' });
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'Spam or scam');
    await user.type(within(dialog).getByLabelText('Details'), 'Advertises a shop.');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent. Thank you for helping keep RuralRoute safe.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/reports', { reported_user_id: ADA.id, review_id: review.id, reason: 'spam', details: 'Advertises a shop.' }],
    ]);
    await waitFor(() => expect(button).toHaveFocus());
  });
});
