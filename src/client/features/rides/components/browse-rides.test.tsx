import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { VERIFIED_BADGE_LABEL } from '@shared/verification';
import { PRIORITY_BADGE_LABEL } from '@/components/priority-badge';
import { ADA, makeRide, SAM } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BrowseRides } from './browse-rides';

afterEach(() => vi.unstubAllGlobals());

describe('Browse Available Rides', () => {
  it("shows the poster's name linking to their profile, date and time, space and notes, and 'Ask to carry something'", async () => {
    const ride = makeRide({
      poster_name: 'Ada Field',
      poster_id: ADA.id,
      departure_date: '2099-12-01',
      departure_time: '07:05',
      available_space: 'Trunk',
      notes: 'Call first',
      is_own: false,
    });
    stubApi({ 'GET /rides/browse': () => ({ body: { items: [ride], next_cursor: null } }) });
    renderWithProviders(<BrowseRides />);
    const card = within(await screen.findByRole('list', { name: 'Available rides' }));
    expect(card.getByRole('heading', { name: 'Oakville → Millbrook' })).toBeVisible();
    expect(card.getByText(/^Posted by/)).toHaveTextContent('Posted by Ada Field');
    expect(card.getByRole('link', { name: 'Ada Field' })).toHaveAttribute('href', `/dashboard/users/${ADA.id}`);
    expect(card.getByText('New member')).toBeVisible();
    expect(card.getByText('December 1, 2099 at 07:05')).toBeVisible();
    expect(card.getByText('Available space: Trunk')).toBeVisible();
    expect(card.getByText('Call first')).toBeVisible();
    expect(card.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Ask to carry something: Oakville → Millbrook',
    ]);
  });

  it("has no 'Ask to carry something' on my own ride", async () => {
    stubApi({ 'GET /rides/browse': () => ({ body: { items: [makeRide({ is_own: true })], next_cursor: null } }) });
    renderWithProviders(<BrowseRides />);
    const card = within(await screen.findByRole('list', { name: 'Available rides' }));
    expect(card.getByRole('heading', { name: 'Oakville → Millbrook' })).toBeVisible();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows the poster's rating and how many reviews it is from", async () => {
    const rated = makeRide({
      origin: 'Hill Farm',
      poster_name: 'Sam Lee',
      poster_id: SAM.id,
      poster_rating: { count: 12, average: 4.8 },
      is_own: false,
    });
    const once = makeRide({ origin: 'Ridge', poster_rating: { count: 1, average: 5 }, is_own: false });
    stubApi({ 'GET /rides/browse': () => ({ body: { items: [rated, once], next_cursor: null } }) });
    renderWithProviders(<BrowseRides />);
    const card = within((await screen.findByRole('heading', { name: 'Hill Farm → Millbrook' })).closest('li')!);
    expect(card.getByText('4.8 ★ · 12 reviews')).toBeVisible();
    expect(card.getByText('Rated 4.8 out of 5 from 12 reviews')).toHaveClass('sr-only');
    expect(card.queryByText('New member')).not.toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', `/dashboard/users/${SAM.id}`);
    const other = within(screen.getByRole('heading', { name: 'Ridge → Millbrook' }).closest('li')!);
    expect(other.getByText('5.0 ★ · 1 review')).toBeVisible();
  });

  it("labels a Plus or Community driver's ride 'Priority' after their name (issue 38), and no other", async () => {
    const priority = makeRide({ origin: 'Hill Farm', poster_name: 'Pat Plus', priority: true, is_own: false });
    const plain = makeRide({ origin: 'Ridge', poster_name: 'Fay Free', priority: false, is_own: false });
    stubApi({ 'GET /rides/browse': () => ({ body: { items: [priority, plain], next_cursor: null } }) });
    renderWithProviders(<BrowseRides />);
    const card = within((await screen.findByRole('heading', { name: 'Hill Farm → Millbrook' })).closest('li')!);
    const label = card.getByRole('img', { name: PRIORITY_BADGE_LABEL });
    expect(label).toHaveTextContent('Priority');
    expect(label).toBeVisible();
    expect(card.getByText(/^Posted by/)).toHaveTextContent('Posted by Pat Plus Priority');
    // The label is not part of the profile link's name.
    expect(card.getByRole('link', { name: 'Pat Plus' })).toBeVisible();
    const other = within(screen.getByRole('heading', { name: 'Ridge → Millbrook' }).closest('li')!);
    expect(other.queryByText('Priority')).not.toBeInTheDocument();
  });

  it("shows Community's 'Ambassador' badge after a Community driver's name, beside 'Verified' (issue 38), and no other", async () => {
    const member = makeRide({
      origin: 'Hill Farm',
      poster_name: 'Cam Community',
      poster_verified: true,
      poster_ambassador: true,
      priority: true,
      is_own: false,
    });
    const plain = makeRide({ origin: 'Ridge', poster_name: 'Fay Free', is_own: false });
    stubApi({ 'GET /rides/browse': () => ({ body: { items: [member, plain], next_cursor: null } }) });
    renderWithProviders(<BrowseRides />);
    const card = within((await screen.findByRole('heading', { name: 'Hill Farm → Millbrook' })).closest('li')!);
    const badge = card.getByRole('img', { name: AMBASSADOR_BADGE_LABEL });
    expect(badge).toHaveTextContent('Ambassador');
    expect(badge).toBeVisible();
    expect(card.getByRole('img', { name: VERIFIED_BADGE_LABEL })).toBeVisible();
    expect(card.getByText(/^Posted by/)).toHaveTextContent('Posted by Cam Community Verified Ambassador Priority');
    // The badge is not part of the profile link's name.
    expect(card.getByRole('link', { name: 'Cam Community' })).toBeVisible();
    const other = within(screen.getByRole('heading', { name: 'Ridge → Millbrook' }).closest('li')!);
    expect(other.queryByRole('img', { name: AMBASSADOR_BADGE_LABEL })).not.toBeInTheDocument();
  });

  it('shows the spec empty text', async () => {
    stubApi({ 'GET /rides/browse': () => ({ body: emptyPage }) });
    renderWithProviders(<BrowseRides />);
    expect(await screen.findByText('No rides available at the moment. Check back later!')).toBeVisible();
  });
});
