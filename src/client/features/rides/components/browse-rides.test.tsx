import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeRide } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BrowseRides } from './browse-rides';

afterEach(() => vi.unstubAllGlobals());

describe('Browse Available Rides', () => {
  it("shows the poster's name, date and time, space and notes, with no action button", async () => {
    const ride = makeRide({
      poster_name: 'Ada Field',
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
    expect(card.getByText('Posted by Ada Field')).toBeVisible();
    expect(card.getByText('December 1, 2099 at 07:05')).toBeVisible();
    expect(card.getByText('Available space: Trunk')).toBeVisible();
    expect(card.getByText('Call first')).toBeVisible();
    expect(card.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows the spec empty text', async () => {
    stubApi({ 'GET /rides/browse': () => ({ body: emptyPage }) });
    renderWithProviders(<BrowseRides />);
    expect(await screen.findByText('No rides available at the moment. Check back later!')).toBeVisible();
  });
});
