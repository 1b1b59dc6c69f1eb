import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNSUBSCRIBE_INVALID_MESSAGE } from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { UnsubscribePage } from './unsubscribe-page';

afterEach(() => vi.unstubAllGlobals());
// As the app mounts it (main.tsx): strict mode at the root runs each effect twice on mounting.
beforeAll(() => configure({ reactStrictMode: true }));
afterAll(() => configure({ reactStrictMode: false }));

const INVALID = { status: 400, body: { code: 'validation_error', message: UNSUBSCRIBE_INVALID_MESSAGE } };

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.unsubscribe} element={<UnsubscribePage />} />
    </Routes>,
    { route },
  );

describe('Unsubscribe page', () => {
  it('unsubscribes once on opening, says from what, and Undo switches the e-mails back on', async () => {
    let answer: () => void = () => {};
    const calls = stubApi({
      'POST /notifications/unsubscribe': () =>
        new Promise((resolve) => (answer = () => resolve({ body: { type: 'message', email: false } }))),
      'POST /notifications/resubscribe': () => ({ body: { type: 'message', email: true } }),
    });
    const user = userEvent.setup();
    renderAt('/unsubscribe?token=tok-123');
    expect(screen.getByRole('heading', { level: 1, name: 'E-mail notifications' })).toBeVisible();
    expect(screen.getByText('Unsubscribing...')).toBeVisible();
    await waitFor(() => expect(calls).toHaveLength(1));
    answer();
    expect(await screen.findByText("You won't get e-mails about “New messages” any more.")).toBeVisible();
    expect(screen.getByRole('link', { name: 'Notification settings' })).toHaveAttribute(
      'href',
      PAGE_PATHS.notificationSettings,
    );
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/notifications/unsubscribe', { token: 'tok-123' }],
    ]);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    const again = await screen.findByText('E-mails about “New messages” are on again.');
    expect(again).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/notifications/unsubscribe', { token: 'tok-123' }],
      ['POST', '/notifications/resubscribe', { token: 'tok-123' }],
    ]);
  });

  it('without a token says the link is not valid and offers to sign in, calling nothing', async () => {
    const calls = stubApi({});
    renderAt('/unsubscribe');
    expect(screen.getByText(UNSUBSCRIBE_INVALID_MESSAGE)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', PAGE_PATHS.auth);
    expect(calls).toEqual([]);
  });

  it('says the link is not valid when the server refuses the token', async () => {
    stubApi({ 'POST /notifications/unsubscribe': () => INVALID });
    renderAt('/unsubscribe?token=forged');
    expect(await screen.findByText(UNSUBSCRIBE_INVALID_MESSAGE)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the network fails, and then unsubscribes", async () => {
    let online = false;
    const calls = stubApi({
      'POST /notifications/unsubscribe': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return { body: { type: 'offer_received', email: false } };
      },
    });
    const user = userEvent.setup();
    renderAt('/unsubscribe?token=tok-9');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't unsubscribe you. No connection. Please try again.");
    online = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText("You won't get e-mails about “New offers on my requests” any more.")).toBeVisible();
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it("keeps 'Undo' and shows the error when undoing fails", async () => {
    stubApi({
      'POST /notifications/unsubscribe': () => ({ body: { type: 'picked_up', email: false } }),
      'POST /notifications/resubscribe': () => INVALID,
    });
    const user = userEvent.setup();
    renderAt('/unsubscribe?token=tok-5');
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(UNSUBSCRIBE_INVALID_MESSAGE)).toBeVisible();
    expect(screen.getByText("You won't get e-mails about “My item was picked up” any more.")).toBeVisible();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
  });
});
