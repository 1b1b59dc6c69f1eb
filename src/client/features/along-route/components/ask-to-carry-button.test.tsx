import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASK_SENT_TOAST, NO_OPEN_REQUESTS_TO_ASK, OWN_RIDE_MESSAGE } from '@shared/places';
import { PAGE_PATHS } from '@shared/routes';
import { BrowseRides } from '@/features/rides/components/browse-rides';
import { makeRequest, makeRide, uuid } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

const ride = makeRide({
  origin: 'Springfield, IL',
  destination: 'Decatur, IL',
  is_own: false,
  poster_name: 'Dan Driver',
});
const trigger = 'Ask to carry something: Springfield, IL → Decatur, IL';
const seed = makeRequest({
  title: 'Seed corn',
  pickup_location: 'Illiopolis, IL',
  delivery_location: 'Niantic, IL',
  is_own: true,
});
const hay = makeRequest({ title: 'Hay bales', is_own: true });
const matched = makeRequest({ title: 'Already matched', status: 'matched', is_own: true });

function stubBrowse(extra: Parameters<typeof stubApi>[0] = {}, mine = [seed, matched, hay]) {
  return stubApi({
    'GET /rides/browse': () => ({ body: { items: [ride], next_cursor: null } }),
    'GET /requests/mine': () => ({ body: { items: mine, next_cursor: null } }),
    ...extra,
  });
}

async function openDialog() {
  const user = userEvent.setup();
  renderWithProviders(<BrowseRides />);
  await user.click(await screen.findByRole('button', { name: trigger }));
  return { user, dialog: within(screen.getByRole('dialog', { name: 'Ask to carry something' })) };
}

const ask = (requestId: string) => ({
  status: 201,
  body: { id: uuid(), ride_id: ride.id, request_id: requestId, created_at: '2026-05-01T10:00:00.000Z' },
});

describe('Ask to carry something', () => {
  it('lists only my open requests; chosen by keyboard, Send asks the driver, toasts and gives focus back', async () => {
    const calls = stubBrowse({
      [`POST /rides/${ride.id}/asks`]: ({ body }) => ask((body as { request_id: string }).request_id),
    });
    const { user, dialog } = await openDialog();
    expect(
      dialog.getByText(
        'Choose one of your open requests. Dan Driver will be asked to carry it on Springfield, IL → Decatur, IL.',
      ),
    ).toBeVisible();
    const group = await dialog.findByRole('group', { name: 'Your open requests' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual([
      'Seed cornIlliopolis, IL → Niantic, IL',
      'Hay balesCo-op, Main St → Hill Farm',
    ]);

    // Arrow keys move the choice within the group, as radios do.
    radios[0]!.focus();
    await user.keyboard(' ');
    expect(radios[0]).toBeChecked();
    await user.keyboard('{ArrowDown}');
    expect(radios[1]).toBeChecked();
    await user.keyboard('{ArrowUp}');
    expect(radios[0]).toBeChecked();
    await user.keyboard('{Enter}');

    expect(await screen.findByText(ASK_SENT_TOAST)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: trigger })).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      [`/rides/${ride.id}/asks`, { request_id: seed.id }],
    ]);
  });

  it('Send without a choice says to choose one, and sends nothing', async () => {
    const calls = stubBrowse();
    const { user, dialog } = await openDialog();
    await dialog.findByRole('group', { name: 'Your open requests' });
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(dialog.getByRole('alert')).toHaveTextContent('Choose one of your requests.');
    expect(dialog.getByRole('group')).toHaveAccessibleDescription('Choose one of your requests.');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('with no open request it says so and links to My Requests', async () => {
    stubBrowse({}, [matched]);
    const { dialog } = await openDialog();
    expect(await dialog.findByText(NO_OPEN_REQUESTS_TO_ASK)).toBeVisible();
    expect(dialog.getByRole('link', { name: 'Go to My Requests' })).toHaveAttribute('href', PAGE_PATHS.myRequests);
    expect(dialog.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('a refusal is a toast and the dialog stays open to try again or cancel', async () => {
    stubBrowse({
      [`POST /rides/${ride.id}/asks`]: () => ({ status: 409, body: { code: 'own_ride', message: OWN_RIDE_MESSAGE } }),
    });
    const { user, dialog } = await openDialog();
    await user.click(await dialog.findByRole('radio', { name: /Hay bales/ }));
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(OWN_RIDE_MESSAGE)).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled());
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a request no longer open toasts Unavailable', async () => {
    stubBrowse({
      [`POST /rides/${ride.id}/asks`]: () => ({
        status: 409,
        body: { code: 'request_unavailable', message: 'This request is no longer available.' },
      }),
    });
    const { user, dialog } = await openDialog();
    await user.click(await dialog.findByRole('radio', { name: /Seed corn/ }));
    await user.click(dialog.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Unavailable')).toBeVisible();
  });

  it('a failed load of my requests shows the error with a retry', async () => {
    let fail = true;
    stubBrowse({
      'GET /requests/mine': () =>
        fail
          ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } }
          : { body: { items: [seed], next_cursor: null } },
    });
    const { user, dialog } = await openDialog();
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your open requests. Try later.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await dialog.findByRole('radio', { name: /Seed corn/ })).toBeVisible();
  });
});
