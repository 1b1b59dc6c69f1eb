import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NOTIFICATION_TYPE_LABELS,
  OPTIONAL_NOTIFICATION_TYPES,
  type NotificationSettings,
} from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { NotificationSettingsPage } from './notification-settings-page';

afterEach(() => vi.unstubAllGlobals());

const allOn = () =>
  Object.fromEntries(OPTIONAL_NOTIFICATION_TYPES.map((t) => [t, true])) as NotificationSettings['email'];

type Refusal = { status: number; body: unknown } | undefined;

/** A server keeping the switches: GET answers what PATCH last stored, unless `patch` refuses (or holds) the save. */
function settingsServer(patch?: () => Refusal | Promise<Refusal>) {
  const settings: NotificationSettings = { address: 'ada@example.com', email: allOn() };
  const calls = stubApi({
    'GET /notifications/settings': () => ({ body: settings }),
    'PATCH /notifications/settings': async ({ body }) => {
      const refusal = await patch?.();
      if (refusal) return refusal;
      Object.assign(settings.email, (body as { email: object }).email);
      return { body: settings };
    },
  });
  return calls;
}

const emailSwitch = (label: string) => screen.getByRole('switch', { name: `${label} Email` });

describe('Notification settings page', () => {
  it('says where e-mails go, has an on switch per type and lists the security notices without switches', async () => {
    settingsServer();
    renderWithProviders(<NotificationSettingsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Notification settings' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', PAGE_PATHS.settings);
    expect(await screen.findByText(/^E-mails go to/)).toHaveTextContent('E-mails go to ada@example.com.');
    expect(screen.getByText(/Notifications in the app are always on/)).toBeVisible();

    const list = screen.getByRole('list', { name: 'E-mails by type' });
    const switches = within(list).getAllByRole('switch');
    expect(switches.map((s) => s.getAttribute('aria-checked'))).toEqual(OPTIONAL_NOTIFICATION_TYPES.map(() => 'true'));
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(OPTIONAL_NOTIFICATION_TYPES.map((t) => `${NOTIFICATION_TYPE_LABELS[t]}Email`));
    // The visible 'Email' labels the switch (clicking the word toggles it), and the name says which type.
    expect(emailSwitch('New messages')).toBeVisible();

    const security = screen.getByRole('region', { name: 'Security notices' });
    expect(
      within(security)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([
      'My password was changedAlways e-mailed',
      'My e-mail address was changedAlways e-mailed',
      'Sign-in from a new browserAlways e-mailed',
      'Two-factor authentication was turned onAlways e-mailed',
      'Two-factor authentication was turned offAlways e-mailed',
    ]);
    expect(within(security).queryByRole('switch')).not.toBeInTheDocument();
  });

  it('saves a switch at once, showing the change before the server answers, and toasts', async () => {
    let answer: () => void = () => {};
    const calls = settingsServer(() => new Promise<Refusal>((resolve) => (answer = () => resolve(undefined))));
    const user = userEvent.setup();
    renderWithProviders(<NotificationSettingsPage />);
    const offers = await screen.findByRole('switch', { name: 'New offers on my requests Email' });
    await user.click(offers);
    expect(offers).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByText('Notification settings saved')).not.toBeInTheDocument();
    answer();
    expect(await screen.findByText('Notification settings saved')).toBeVisible();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { email: { offer_received: false } },
    ]);
    // The settings are reloaded after the save, and say the same.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    expect(emailSwitch('New offers on my requests')).toHaveAttribute('aria-checked', 'false');
    expect(emailSwitch('New messages')).toHaveAttribute('aria-checked', 'true');
  });

  it('toggles by keyboard (Space) and by the word Email', async () => {
    const calls = settingsServer();
    const user = userEvent.setup();
    renderWithProviders(<NotificationSettingsPage />);
    const messages = await screen.findByRole('switch', { name: 'New messages Email' });
    messages.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(messages).toHaveAttribute('aria-checked', 'false'));
    const row = messages.closest('li')!;
    await user.click(within(row).getByText('Email'));
    await waitFor(() => expect(messages).toHaveAttribute('aria-checked', 'true'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
        { email: { message: false } },
        { email: { message: true } },
      ]),
    );
  });

  it('puts the switch back and shows the error when saving fails', async () => {
    settingsServer(() => ({
      status: 500,
      body: { code: 'internal_error', message: 'Something went wrong on our side.' },
    }));
    const user = userEvent.setup();
    renderWithProviders(<NotificationSettingsPage />);
    const picked = await screen.findByRole('switch', { name: 'My item was picked up Email' });
    await user.click(picked);
    expect(await screen.findByText('Something went wrong on our side.')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    await waitFor(() => expect(picked).toHaveAttribute('aria-checked', 'true'));
    expect(screen.queryByText('Notification settings saved')).not.toBeInTheDocument();
  });

  it('says so when the settings cannot be loaded, and tries again', async () => {
    let fail = true;
    stubApi({
      'GET /notifications/settings': () =>
        fail
          ? { status: 500, body: { code: 'internal_error', message: 'Something went wrong on our side.' } }
          : { body: { address: 'ada@example.com', email: allOn() } },
    });
    const user = userEvent.setup();
    renderWithProviders(<NotificationSettingsPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your notification settings...');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your notification settings. Something went wrong on our side.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/^E-mails go to/)).toHaveTextContent('E-mails go to ada@example.com.');
    expect(screen.getAllByRole('switch')).toHaveLength(OPTIONAL_NOTIFICATION_TYPES.length);
  });
});
