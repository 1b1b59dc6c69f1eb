import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { BookingStatusBadge } from './booking-status-badge';
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

  it('shows the spec empty text', async () => {
    stubApi({ 'GET /bookings/mine': () => ({ body: emptyPage }) });
    renderWithProviders(<MyBookings />);
    expect(await screen.findByText('No bookings yet. Browse requests to accept deliveries!')).toBeVisible();
  });
});
