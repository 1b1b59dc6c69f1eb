import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_ALERT_LABEL, ROUTE_NEEDS_PLACES, type SavedSearch } from '@shared/places';
import { alongRoutePath } from '@shared/routes';
import { MyRides } from '@/features/rides/components/my-rides';
import { makeSavedSearch } from '@/test/alerts';
import { makeRide } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

const ride = makeRide({ origin: 'Springfield, IL', destination: 'Decatur, IL' });
const toggleName = `${ROUTE_ALERT_LABEL}: Springfield, IL → Decatur, IL`;
const card = async () =>
  within((await screen.findByRole('heading', { name: 'Springfield, IL → Decatur, IL' })).closest('li')!);

function stubRides(
  extra: Parameters<typeof stubApi>[0] = {},
  { count = 3, searches = [] as SavedSearch[], rides = [ride] } = {},
) {
  return stubApi({
    'GET /rides/mine': () => ({ body: { items: rides, next_cursor: null } }),
    [`GET /rides/${ride.id}/along-route/count`]: () => ({ body: { count } }),
    'GET /saved-searches': () => ({ body: { items: searches } }),
    ...extra,
  });
}

describe('My Rides: along the route', () => {
  it("links 'Requests along this route (N)' to the ride's along-route page, N from the count", async () => {
    const calls = stubRides();
    renderWithProviders(<MyRides />);
    const link = await (await card()).findByRole('link', { name: 'Requests along this route (3)' });
    expect(link).toHaveAttribute('href', alongRoutePath(ride.id));
    expect(calls.filter((c) => c.path.startsWith('/saved-searches'))).toHaveLength(1);
  });

  it('a ride typed without suggested places says so in plain words, with neither link nor alert', async () => {
    stubRides({
      [`GET /rides/${ride.id}/along-route/count`]: () => ({
        status: 409,
        body: { code: 'route_needs_places', message: ROUTE_NEEDS_PLACES },
      }),
    });
    renderWithProviders(<MyRides />);
    const c = await card();
    expect(await c.findByText(ROUTE_NEEDS_PLACES)).toBeVisible();
    expect(c.queryByRole('link', { name: /Requests along this route/ })).not.toBeInTheDocument();
    expect(c.queryByRole('button', { name: toggleName })).not.toBeInTheDocument();
  });

  it('a cancelled or completed ride has neither', async () => {
    const calls = stubRides({}, { rides: [makeRide({ ...ride, status: 'completed' })] });
    renderWithProviders(<MyRides />);
    const c = await card();
    expect(c.queryByRole('link', { name: /Requests along this route/ })).not.toBeInTheDocument();
    expect(c.queryByRole('button', { name: toggleName })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.includes('along-route'))).toHaveLength(0);
  });

  it('the alert toggle turns on by keyboard: POST, pressed, a toast', async () => {
    let searches: SavedSearch[] = [];
    const calls = stubRides({
      'GET /saved-searches': () => ({ body: { items: searches } }),
      [`POST /rides/${ride.id}/alert`]: () => {
        const alert = makeSavedSearch({ ride_id: ride.id, name: 'Along Springfield, IL → Decatur, IL' });
        searches = [alert];
        return { status: 201, body: alert };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    const toggle = await (await card()).findByRole('button', { name: toggleName });
    expect(toggle).toHaveTextContent(ROUTE_ALERT_LABEL);
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Route alert on')).toBeVisible();
    expect(screen.getByText("We'll tell you when someone posts a request along this route.")).toBeVisible();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));
    expect(toggle).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/rides/${ride.id}/alert`]);
  });

  it('the alert toggle turns off with DELETE and a toast', async () => {
    let searches = [makeSavedSearch({ ride_id: ride.id })];
    const calls = stubRides(
      {
        'GET /saved-searches': () => ({ body: { items: searches } }),
        [`DELETE /rides/${ride.id}/alert`]: () => {
          searches = [];
          return { status: 204 };
        },
      },
      { searches },
    );
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    const toggle = await (await card()).findByRole('button', { name: toggleName });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));
    await user.click(toggle);
    expect(await screen.findByText('Route alert off')).toBeVisible();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('a refused alert toasts why and stays off', async () => {
    stubRides({
      [`POST /rides/${ride.id}/alert`]: () => ({
        status: 400,
        body: { code: 'validation_error', message: 'You can save at most 20 searches. Delete one first.' },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    const toggle = await (await card()).findByRole('button', { name: toggleName });
    await user.click(toggle);
    expect(await screen.findByText('You can save at most 20 searches. Delete one first.')).toBeVisible();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'false'));
  });
});
