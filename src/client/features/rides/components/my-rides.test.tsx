import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeRide } from '@/test/factories';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { MyRides } from './my-rides';

afterEach(() => vi.unstubAllGlobals());

async function openForm() {
  const user = userEvent.setup();
  renderWithProviders(<MyRides />);
  await user.click(await screen.findByRole('button', { name: 'Post New Ride' }));
  return user;
}

describe('My Rides', () => {
  it('shows the spec empty state, and the toggle opens and closes the form with focus on Origin', async () => {
    stubApi({ 'GET /rides/mine': () => ({ body: emptyPage }) });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    expect(await screen.findByText('No rides posted yet. Click "Post New Ride" to get started!')).toBeVisible();

    const toggle = screen.getByRole('button', { name: 'Post New Ride' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Origin')).toHaveFocus();
    for (const label of ['Destination', 'Departure Date', 'Departure Time (optional)', 'Available Space', 'Notes'])
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByLabelText('Available Space')).toHaveAttribute('placeholder', 'e.g., Trunk space, back seat');

    await user.click(toggle);
    expect(screen.queryByLabelText('Origin')).not.toBeInTheDocument();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Origin')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });

  it('refuses an empty form with the first schema message as a Validation Error toast and inline errors', async () => {
    const calls = stubApi({ 'GET /rides/mine': () => ({ body: emptyPage }) });
    const user = await openForm();
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));

    expect(await screen.findByText('Validation Error')).toBeVisible();
    const origin = screen.getByLabelText('Origin');
    expect(origin).toHaveAttribute('aria-invalid', 'true');
    expect(origin).toHaveAccessibleDescription('Origin is required');
    expect(screen.getByLabelText('Destination')).toHaveAccessibleDescription('Destination is required');
    expect(screen.getByLabelText('Departure Date')).toHaveAccessibleDescription('Departure date is required');
    // The toast names the first failing field in schema order.
    expect(screen.getAllByText('Origin is required')).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses a departure date in the past and an over-long field', async () => {
    const calls = stubApi({ 'GET /rides/mine': () => ({ body: emptyPage }) });
    const user = await openForm();
    await user.type(screen.getByLabelText('Origin'), 'Oakville');
    await user.type(screen.getByLabelText('Destination'), 'Millbrook');
    fireEvent.change(screen.getByLabelText('Departure Date'), { target: { value: '2000-01-01' } });
    fireEvent.change(screen.getByLabelText('Available Space'), { target: { value: 'x'.repeat(201) } });
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));

    expect(await screen.findAllByText('Departure date cannot be in the past')).toHaveLength(2);
    expect(screen.getByLabelText('Available Space')).toHaveAccessibleDescription(
      'Available space must be less than 200 characters',
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('posts the ride, toasts, closes the form and reloads the list', async () => {
    let rides = [] as ReturnType<typeof makeRide>[];
    const calls = stubApi({
      'GET /rides/mine': () => ({ body: { items: rides, next_cursor: null } }),
      'POST /rides': ({ body }) => {
        const created = makeRide({ ...(body as object), status: 'active' });
        rides = [created];
        return { status: 201, body: created };
      },
    });
    const user = await openForm();
    await user.type(screen.getByLabelText('Origin'), '  Oakville ');
    await user.type(screen.getByLabelText('Destination'), 'Millbrook');
    fireEvent.change(screen.getByLabelText('Departure Date'), { target: { value: '2099-11-21' } });
    fireEvent.change(screen.getByLabelText('Departure Time (optional)'), { target: { value: '09:30' } });
    await user.type(screen.getByLabelText('Available Space'), 'Back seat');
    await user.click(screen.getByRole('button', { name: 'Post Ride' }));

    expect(await screen.findByText('Ride posted successfully')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      origin: 'Oakville',
      destination: 'Millbrook',
      departure_date: '2099-11-21',
      departure_time: '09:30',
      available_space: 'Back seat',
      notes: null,
      // Typed, not chosen from suggestions.
      origin_place_id: null,
      destination_place_id: null,
      // A Free member's form has no stops.
      stops: [],
    });
    const card = (await screen.findByRole('heading', { name: 'Oakville → Millbrook' })).closest('li')!;
    expect(within(card).getByText('November 21, 2099 at 09:30')).toBeVisible();
    expect(within(card).getByText('Available space: Back seat')).toBeVisible();
    expect(within(card).getByText('Active')).toBeVisible();
    expect(screen.queryByLabelText('Origin')).not.toBeInTheDocument();
  });

  it('shows a date without time, notes, and deletes only after confirmation', async () => {
    let rides = [makeRide({ notes: 'Leaving early', departure_date: '2099-03-05' })];
    const calls = stubApi({
      'GET /rides/mine': () => ({ body: { items: rides, next_cursor: null } }),
      [`DELETE /rides/${rides[0]!.id}`]: () => {
        rides = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    expect(await screen.findByText('March 5, 2099')).toBeVisible();
    expect(screen.getByText('Leaving early')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Delete ride Oakville → Millbrook' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this ride?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete ride Oakville → Millbrook' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Ride deleted successfully')).toBeVisible();
    expect(await screen.findByText('No rides posted yet. Click "Post New Ride" to get started!')).toBeVisible();
  });

  it('toasts a failed delete and keeps the ride', async () => {
    const ride = makeRide();
    stubApi({
      'GET /rides/mine': () => ({ body: { items: [ride], next_cursor: null } }),
      [`DELETE /rides/${ride.id}`]: () => ({ status: 500, body: { code: 'internal_error', message: 'Boom' } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    await user.click(await screen.findByRole('button', { name: 'Delete ride Oakville → Millbrook' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete ride')).toBeVisible();
    // The dialog stays open so the user can retry or cancel; the ride is still listed behind it.
    const dialog = screen.getByRole('alertdialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: 'Oakville → Millbrook' })).toBeVisible();
  });

  it('a failed load toasts and shows an error with a working retry', async () => {
    let fail = true;
    stubApi({
      'GET /rides/mine': () =>
        fail ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } } : { body: emptyPage },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    expect(await screen.findByText('Failed to fetch rides')).toBeVisible();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your rides. Try later.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No rides posted yet. Click "Post New Ride" to get started!')).toBeVisible();
  });

  it('loads the next page with the cursor on "Load more"', async () => {
    const first = Array.from({ length: 20 }, (_, i) => makeRide({ origin: `Town ${i}` }));
    const calls = stubApi({
      'GET /rides/mine': ({ path }) =>
        path.includes('cursor=c1')
          ? { body: { items: [makeRide({ origin: 'Last town' })], next_cursor: null } }
          : { body: { items: first, next_cursor: 'c1' } },
    });
    const user = userEvent.setup();
    renderWithProviders(<MyRides />);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Last town → Millbrook' })).toBeVisible();
    expect(within(screen.getByRole('list', { name: 'Your rides' })).getAllByRole('listitem')).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.path).filter((p) => p.startsWith('/rides/mine'))).toEqual([
      '/rides/mine?limit=20',
      '/rides/mine?limit=20&cursor=c1',
    ]);
  });
});
