import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '@/test/render';
import { DashboardHome } from './dashboard-home';

afterEach(() => vi.unstubAllGlobals());

const EMPTY_TEXT = 'No recent activity yet. Start by posting a ride or creating a delivery request!';

describe('Dashboard index', () => {
  it('shows the real counts and the activity list', async () => {
    stubApi({
      'GET /dashboard': () => ({
        body: {
          stats: { active_rides: 3, open_requests: 2, total_bookings: 5, bookings_as_driver: 5, completed: 1 },
          activity: [
            {
              id: 'a1',
              type: 'request_accepted',
              at: '2026-05-01T10:00:00Z',
              title: 'Feed',
              driver_name: 'Sam Lee',
            },
            {
              id: 'a2',
              type: 'ride_posted',
              at: '2026-04-30T10:00:00Z',
              origin: 'Oakville',
              destination: 'Millbrook',
            },
          ],
        },
      }),
    });
    renderWithProviders(<DashboardHome />);
    expect(await screen.findByTestId('stat-activeRides')).toHaveTextContent('3');
    expect(screen.getByTestId('stat-openRequests')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-totalBookings')).toHaveTextContent('5');
    expect(screen.getByTestId('stat-completed')).toHaveTextContent('1');
    const activity = within(screen.getByRole('list', { name: 'Recent activity' }));
    expect(activity.getAllByRole('listitem')).toHaveLength(2);
    expect(activity.getByText('Sam Lee accepted your request "Feed"')).toBeVisible();
    expect(activity.getByText('You posted a ride from Oakville to Millbrook')).toBeVisible();
    expect(screen.queryByText(EMPTY_TEXT)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Post a New Ride' })).toHaveAttribute('href', '/dashboard/rides');
    expect(screen.getByRole('link', { name: 'Create a Delivery Request' })).toHaveAttribute(
      'href',
      '/dashboard/requests',
    );
  });

  it("shows the spec's empty text only when there is no activity", async () => {
    stubApi({
      'GET /dashboard': () => ({
        body: {
          stats: { active_rides: 0, open_requests: 0, total_bookings: 0, bookings_as_driver: 0, completed: 0 },
          activity: [],
        },
      }),
    });
    renderWithProviders(<DashboardHome />);
    expect(await screen.findByText(EMPTY_TEXT)).toBeVisible();
    expect(screen.getByTestId('stat-activeRides')).toHaveTextContent('0');
  });

  it('a failed load shows an error with a working retry', async () => {
    let fail = true;
    stubApi({
      'GET /dashboard': () =>
        fail
          ? { status: 500, body: { code: 'internal_error', message: 'Down.' } }
          : {
              body: {
                stats: { active_rides: 4, open_requests: 0, total_bookings: 0, bookings_as_driver: 0, completed: 0 },
                activity: [],
              },
            },
    });
    const user = userEvent.setup();
    renderWithProviders(<DashboardHome />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your dashboard. Down.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('stat-activeRides')).toHaveTextContent('4');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('words lifecycle steps, links each to its booking, and links the booking counts to My Bookings', async () => {
    const bookingId = '00000000-0000-4000-8000-000000000b0c';
    stubApi({
      'GET /dashboard': () => ({
        body: {
          stats: { active_rides: 0, open_requests: 0, total_bookings: 2, bookings_as_driver: 2, completed: 1 },
          activity: [
            {
              id: 'a1',
              type: 'booking_event',
              at: '2026-05-01T10:00:00Z',
              event: 'chosen',
              booking_id: bookingId,
              title: 'Feed sacks',
              actor_name: 'Ana Diaz',
              mine: false,
              my_role: 'driver',
            },
          ],
        },
      }),
    });
    renderWithProviders(<DashboardHome />);
    const activity = within(await screen.findByRole('list', { name: 'Recent activity' }));
    expect(activity.getByRole('link', { name: 'Ana Diaz chose you to deliver "Feed sacks"' })).toHaveAttribute(
      'href',
      `/dashboard/bookings/${bookingId}`,
    );
    expect(screen.getByRole('link', { name: /for Total Bookings$/ })).toHaveAttribute('href', '/dashboard/bookings');
    expect(screen.getByRole('link', { name: /for Completed$/ })).toHaveAttribute('href', '/dashboard/bookings');
  });

  it("opens the 'As requester' tab from Total Bookings when all my bookings are on my requests", async () => {
    stubApi({
      'GET /dashboard': () => ({
        body: {
          stats: { active_rides: 0, open_requests: 1, total_bookings: 2, bookings_as_driver: 0, completed: 0 },
          activity: [],
        },
      }),
    });
    renderWithProviders(<DashboardHome />);
    expect(await screen.findByTestId('stat-totalBookings')).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: /for Total Bookings$/ })).toHaveAttribute(
      'href',
      '/dashboard/bookings?tab=requester',
    );
  });
});
