import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedSearch } from '@shared/places';
import { alongRoutePath, PAGE_PATHS } from '@shared/routes';
import { makeSavedSearch } from '@/test/alerts';
import { uuid } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';
import { AlertsPage } from './alerts-page';

afterEach(() => vi.unstubAllGlobals());

const rideId = uuid();
const decatur = makeSavedSearch({ name: 'Requests near Decatur, IL', filters: { near: 1201, within: 10, q: 'feed' } });
const rides = makeSavedSearch({
  name: 'Rides in May',
  kind: 'rides',
  filters: { within: 25, from: '2099-05-01', to: '2099-05-31' },
  near_label: null,
  email: false,
});
const route = makeSavedSearch({
  name: 'Along Springfield, IL → Decatur, IL',
  filters: {},
  near_label: null,
  ride_id: rideId,
});

const list = (name: string) => within(screen.getByRole('list', { name }));
const row = (name: string) => within(screen.getByText(name).closest('li')!);
const emailSwitch = (name: string) => screen.getByRole('switch', { name: `${name} Email` });

function stubAlerts(items: SavedSearch[], extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({ 'GET /saved-searches': () => ({ body: { items } }), ...extra });
}

describe('Alerts page', () => {
  it('lists saved searches and route alerts: name, what they match in words, Open, Email', async () => {
    stubAlerts([decatur, rides, route]);
    renderWithProviders(<AlertsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', PAGE_PATHS.settings);

    const searches = await screen.findByRole('list', { name: 'Saved searches' });
    expect(within(searches).getAllByRole('listitem')).toHaveLength(2);
    expect(
      row('Requests near Decatur, IL').getByText('Requests near Decatur, IL within 10 mi, with the words "feed"'),
    ).toBeVisible();
    expect(
      row('Requests near Decatur, IL').getByRole('link', { name: 'Open Requests near Decatur, IL' }),
    ).toHaveAttribute('href', `${PAGE_PATHS.browseRequests}?near=1201&within=10&q=feed`);
    expect(row('Rides in May').getByText('Rides from May 1, 2099 to May 31, 2099')).toBeVisible();
    expect(row('Rides in May').getByRole('link', { name: 'Open Rides in May' })).toHaveAttribute(
      'href',
      `${PAGE_PATHS.browseRides}?from=2099-05-01&to=2099-05-31`,
    );
    expect(emailSwitch('Requests near Decatur, IL')).toBeChecked();
    expect(emailSwitch('Rides in May')).not.toBeChecked();

    const alerts = list('Route alerts');
    expect(alerts.getAllByRole('listitem')).toHaveLength(1);
    expect(alerts.getByText("New requests along this ride's route (within 5 mi)")).toBeVisible();
    expect(alerts.getByRole('link', { name: 'Open Along Springfield, IL → Decatur, IL' })).toHaveAttribute(
      'href',
      alongRoutePath(rideId),
    );
  });

  it('says where to start when there is nothing yet', async () => {
    stubAlerts([]);
    renderWithProviders(<AlertsPage />);
    expect(
      await screen.findByText('No saved searches yet. Use "Save this search" on Browse Requests or Browse Rides.'),
    ).toBeVisible();
    expect(
      screen.getByText('No route alerts yet. Use "Tell me about new requests along this route" on a ride in My Rides.'),
    ).toBeVisible();
  });

  it("'Email' is saved at once by keyboard, with a toast; a failure puts it back", async () => {
    let fail = false;
    const calls = stubAlerts([rides], {
      [`PATCH /saved-searches/${rides.id}`]: ({ body }) =>
        fail
          ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } }
          : { body: { ...rides, ...(body as object) } },
    });
    const user = userEvent.setup();
    renderWithProviders(<AlertsPage />);
    const toggle = await screen.findByRole('switch', { name: 'Rides in May Email' });
    toggle.focus();
    await user.keyboard(' ');
    expect(toggle).toBeChecked();
    expect(await screen.findByText('Alert e-mails on')).toBeVisible();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ email: true }]);

    fail = true;
    await user.keyboard(' ');
    expect(await screen.findByText('Try later.')).toBeVisible();
    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toHaveFocus();
  });

  it("'Delete' asks first, then deletes, toasts and reloads", async () => {
    let items = [decatur, route];
    const calls = stubApi({
      'GET /saved-searches': () => ({ body: { items } }),
      [`DELETE /saved-searches/${decatur.id}`]: () => {
        items = [route];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<AlertsPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete Requests near Decatur, IL' }));
    const confirm = within(screen.getByRole('alertdialog', { name: 'Delete this alert?' }));
    expect(
      confirm.getByText('"Requests near Decatur, IL" will be deleted. You will no longer be told about new matches.'),
    ).toBeVisible();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Requests near Decatur, IL' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Alert deleted')).toBeVisible();
    expect(
      await screen.findByText('No saved searches yet. Use "Save this search" on Browse Requests or Browse Rides.'),
    ).toBeVisible();
    expect(list('Route alerts').getAllByRole('listitem')).toHaveLength(1);
  });

  it('a failed load shows the error with a working retry', async () => {
    let fail = true;
    stubApi({
      'GET /saved-searches': () =>
        fail
          ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } }
          : { body: { items: [decatur] } },
    });
    const user = userEvent.setup();
    renderWithProviders(<AlertsPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your alerts. Try later.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Saved searches' })).toBeVisible();
  });
});
