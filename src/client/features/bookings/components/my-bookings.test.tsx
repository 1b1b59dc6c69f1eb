import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BookingStatusBadge } from '@/components/booking-status-badge';
import { MyBookings } from './my-bookings';

afterEach(() => vi.unstubAllGlobals());

describe('booking status badge', () => {
  it.each([
    ['pending', 'Pending', 'bg-yellow-100', 'text-yellow-900'],
    ['confirmed', 'Confirmed', 'bg-blue-100', 'text-blue-900'],
    ['completed', 'Completed', 'bg-green-100', 'text-green-900'],
    ['cancelled', 'Cancelled', 'bg-red-100', 'text-red-900'],
    ['disputed', 'Disputed', 'bg-gray-100', 'text-gray-900'],
    ['toString', 'ToString', 'bg-gray-100', 'text-gray-900'],
  ])('%s is %s on %s', (status, text, bg, fg) => {
    render(<BookingStatusBadge status={status} />);
    const badge = screen.getByText(text);
    expect(badge).toHaveClass(bg, fg);
  });
});

describe('My Bookings', () => {
  it("shows the request title, 'For' the requester, the status badge and the route", async () => {
    stubApi({
      'GET /bookings/mine': () => ({
        body: { items: [makeBooking({ status: 'cancelled' })], next_cursor: null },
      }),
    });
    renderWithProviders(<MyBookings />);
    const list = within(await screen.findByRole('list', { name: 'Your bookings' }));
    expect(list.getByRole('heading', { name: 'Feed from the co-op' })).toBeVisible();
    expect(list.getByText('For Ada Field')).toBeVisible();
    expect(list.getByText('Cancelled')).toHaveClass('bg-red-100');
    expect(list.getByText('Co-op, Main St → Hill Farm')).toBeVisible();
  });

  it("links every card to its page with 'View booking'", async () => {
    const booking = makeBooking();
    stubApi({ 'GET /bookings/mine': () => ({ body: { items: [booking], next_cursor: null } }) });
    renderWithProviders(<MyBookings />);
    const link = await screen.findByRole('link', { name: 'View booking for Feed from the co-op' });
    expect(link).toHaveTextContent('View booking');
    expect(link).toHaveAttribute('href', `/dashboard/bookings/${booking.id}`);
  });

  it('shows the spec empty text', async () => {
    stubApi({ 'GET /bookings/mine': () => ({ body: emptyPage }) });
    renderWithProviders(<MyBookings />);
    expect(await screen.findByText('No bookings yet. Browse requests to accept deliveries!')).toBeVisible();
  });
});

describe('My Bookings tabs', () => {
  const byRole = () =>
    stubApi({
      'GET /bookings/mine': ({ path }) => {
        const role = new URLSearchParams(path.split('?')[1]).get('role');
        const items =
          role === 'requester'
            ? [makeBooking({ driver_name: 'Sam Lee', request: { ...makeBooking().request, title: 'My hay bales' } })]
            : [makeBooking()];
        return { body: { items, next_cursor: null } };
      },
    });

  it("opens 'As driver' by default and loads only the driver's list", async () => {
    const calls = byRole();
    renderWithProviders(<MyBookings />);
    expect(screen.getByRole('tab', { name: 'As driver' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'As requester' })).toHaveAttribute('aria-selected', 'false');
    expect(await screen.findByText('For Ada Field')).toBeVisible();
    expect(calls.map((c) => c.path)).toEqual(['/bookings/mine?role=driver&limit=20']);
  });

  it("'As requester' lists the bookings on my requests with the driver's name", async () => {
    const calls = byRole();
    const user = userEvent.setup();
    renderWithProviders(<MyBookings />);
    await screen.findByText('For Ada Field');
    await user.click(screen.getByRole('tab', { name: 'As requester' }));
    expect(screen.getByRole('tab', { name: 'As requester' })).toHaveAttribute('aria-selected', 'true');
    const list = within(await screen.findByRole('list', { name: 'Bookings on your requests' }));
    expect(list.getByRole('heading', { name: 'My hay bales' })).toBeVisible();
    expect(list.getByText('Driver: Sam Lee')).toBeVisible();
    expect(list.getByRole('link', { name: 'View booking for My hay bales' })).toBeVisible();
    expect(calls.map((c) => c.path)).toContain('/bookings/mine?role=requester&limit=20');
  });

  it('opens on the tab the URL names (?tab=requester), with its own empty text', async () => {
    const calls = stubApi({ 'GET /bookings/mine': () => ({ body: emptyPage }) });
    renderWithProviders(<MyBookings />, { route: '/dashboard/bookings?tab=requester' });
    expect(screen.getByRole('tab', { name: 'As requester' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('No bookings on your requests yet.')).toBeVisible();
    expect(calls.map((c) => c.path)).toEqual(['/bookings/mine?role=requester&limit=20']);
  });

  it("is keyset-paginated: 'Load more' asks for the next cursor in the same role", async () => {
    const calls = stubApi({
      'GET /bookings/mine': ({ path }) =>
        path.includes('cursor=')
          ? {
              body: {
                items: [makeBooking({ request: { ...makeBooking().request, title: 'Second page' } })],
                next_cursor: null,
              },
            }
          : { body: { items: [makeBooking()], next_cursor: 'abc' } },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyBookings />, { route: '/dashboard/bookings?tab=requester' });
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Second page' })).toBeVisible();
    await waitFor(() =>
      expect(calls.map((c) => c.path)).toContain('/bookings/mine?role=requester&limit=20&cursor=abc'),
    );
  });
});
