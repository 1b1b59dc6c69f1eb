import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from '@/lib/router';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '@shared/notifications';
import { PAGE_PATHS } from '@shared/routes';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { makeNotification } from './notifications.fixtures';
import { NotificationsBell } from './notifications-bell';
import { NotificationsPage } from './notifications-page';

afterEach(() => vi.unstubAllGlobals());

type Handler = Parameters<typeof stubApi>[0][string];

/** Where a notification led: the path and hash the router is at. */
function Destination() {
  const { pathname, hash } = useLocation();
  return <p>Opened {`${pathname}${hash}`}</p>;
}

/** The notifications page, under the bell as in the dashboard, in a router that has somewhere to go. */
function renderPage({
  items = [],
  unread = items.filter((n) => n.read_at === null).length,
  routes = {},
}: { items?: Notification[]; unread?: number; routes?: Record<string, Handler> } = {}) {
  const calls = stubApi({
    'GET /notifications': () => ({ body: { items, next_cursor: null } }),
    'GET /notifications/unread': () => ({ body: { count: unread } }),
    ...routes,
  });
  const user = userEvent.setup();
  renderWithProviders(
    <>
      <NotificationsBell />
      <Routes>
        <Route path={PAGE_PATHS.notifications} element={<NotificationsPage />} />
        <Route path="*" element={<Destination />} />
      </Routes>
    </>,
    { route: PAGE_PATHS.notifications },
  );
  return { calls, user };
}

const toastTexts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
const list = () => screen.getByRole('list', { name: 'Your notifications' });

describe('Notifications page', () => {
  it('lists them in the order the API gives (newest first), each its words as a link, with its time', async () => {
    const unread = makeNotification();
    const read = makeNotification({
      type: 'message',
      text: 'Ada Field sent you a message about “Hay”.',
      link: '/dashboard/bookings/b1#messages',
      created_at: '2026-11-24T09:30:00.000Z',
      read_at: '2026-11-24T10:00:00.000Z',
    });
    renderPage({ items: [unread, read] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    expect(document.title).toBe('Notifications — RuralRoute');
    await screen.findByText(unread.text);
    const [first, second] = within(list()).getAllByRole('listitem');

    // Unread: bold, a dot, and 'Unread' for screen readers.
    const firstLink = within(first!).getByRole('link');
    expect(firstLink).toHaveAccessibleName(`Unread: ${unread.text}`);
    expect(firstLink).toHaveAttribute('href', unread.link);
    expect(firstLink).toHaveClass('font-semibold');
    expect(within(first!).getByText('Unread:')).toHaveClass('sr-only');
    expect(first!.querySelector('span[aria-hidden]')).toHaveClass('bg-primary');
    const time = first!.querySelector('time')!;
    expect(time).toHaveAttribute('datetime', unread.created_at);
    expect(time).toHaveTextContent(
      new Date(unread.created_at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
    );

    // Read: plain, no dot, no 'Unread'.
    const secondLink = within(second!).getByRole('link');
    expect(secondLink).toHaveAccessibleName(read.text);
    expect(secondLink).toHaveAttribute('href', read.link);
    expect(secondLink).not.toHaveClass('font-semibold');
    expect(second!.querySelector('span[aria-hidden]')).not.toHaveClass('bg-primary');
    expect(within(second!).queryByText(/Unread/)).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Notification settings' })).toHaveAttribute(
      'href',
      PAGE_PATHS.notificationSettings,
    );
  });

  it('opening an unread one marks it read and goes to its link at once; the bell then counts it read', async () => {
    const n = makeNotification();
    let answer: (a: { body: unknown }) => void = () => {};
    let marked = false;
    const { calls, user } = renderPage({
      items: [n],
      routes: {
        'GET /notifications/unread': () => ({ body: { count: marked ? 0 : 1 } }),
        // The mark-read call stays in flight: navigation must not wait for it.
        [`POST /notifications/${n.id}/read`]: () =>
          new Promise((resolve) => {
            answer = (a) => {
              marked = true;
              resolve(a);
            };
          }),
      },
    });
    expect(await screen.findByRole('link', { name: 'Notifications, 1 unread' })).toBeVisible();
    await user.click(await screen.findByRole('link', { name: `Unread: ${n.text}` }));
    expect(await screen.findByText(`Opened ${n.link}`)).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/notifications/${n.id}/read`]);
    expect(screen.getByRole('link', { name: 'Notifications, 1 unread' })).toBeVisible();
    answer({ body: { ...n, read_at: '2026-11-25T16:00:00.000Z' } });
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeVisible();
  });

  it("Enter on the link opens it too, a '#messages' link keeps its hash", async () => {
    const n = makeNotification({
      type: 'message',
      text: 'Ada Field sent you 2 messages about “Hay”.',
      link: '/dashboard/bookings/b1#messages',
    });
    const { calls, user } = renderPage({
      items: [n],
      routes: { [`POST /notifications/${n.id}/read`]: () => ({ body: { ...n, read_at: n.created_at } }) },
    });
    const link = await screen.findByRole('link', { name: `Unread: ${n.text}` });
    link.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Opened /dashboard/bookings/b1#messages')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST' && c.path === `/notifications/${n.id}/read`)).toBe(true);
  });

  it('opening a read one does not mark it again', async () => {
    const n = makeNotification({ read_at: '2026-11-25T16:00:00.000Z' });
    const { calls, user } = renderPage({ items: [n] });
    await user.click(await screen.findByRole('link', { name: n.text }));
    expect(await screen.findByText(`Opened ${n.link}`)).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("'Mark all as read' marks them, says so, and reloads the list and the count", async () => {
    const n = makeNotification();
    let marked = false;
    const { calls, user } = renderPage({
      routes: {
        'GET /notifications': () => ({
          body: { items: [marked ? { ...n, read_at: n.created_at } : n], next_cursor: null },
        }),
        'GET /notifications/unread': () => ({ body: { count: marked ? 0 : 1 } }),
        'POST /notifications/read-all': () => {
          marked = true;
          return { body: { count: 1 } };
        },
      },
    });
    const button = await screen.findByRole('button', { name: 'Mark all as read' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(toastTexts().some((t) => t.includes('All notifications marked as read'))).toBe(true));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/notifications/read-all']);
    expect(await screen.findByRole('link', { name: n.text })).not.toHaveClass('font-semibold');
    expect(button).toBeDisabled();
  });

  it("a failed 'Mark all as read' says why", async () => {
    const { user } = renderPage({
      items: [makeNotification()],
      routes: {
        'POST /notifications/read-all': () => ({
          status: 500,
          body: { code: 'internal', message: 'Something went wrong on our side.' },
        }),
      },
    });
    const button = await screen.findByRole('button', { name: 'Mark all as read' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() =>
      expect(toastTexts().some((t) => t.includes('Error') && t.includes('Something went wrong on our side.'))).toBe(
        true,
      ),
    );
    expect(button).toBeEnabled();
  });

  it("says \"You're all caught up.\" when there are none, and 'Mark all as read' is disabled", async () => {
    const calls = stubApi({
      'GET /notifications': () => ({ body: emptyPage }),
      'GET /notifications/unread': () => ({ body: { count: 0 } }),
    });
    renderWithProviders(<NotificationsPage />);
    expect(await screen.findByText("You're all caught up.")).toBeVisible();
    await waitFor(() => expect(calls.some((c) => c.path === '/notifications/unread')).toBe(true));
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('shows loading, then a failed load with a retry', async () => {
    let fail = true;
    const n = makeNotification();
    renderPage({
      routes: {
        'GET /notifications': () =>
          fail
            ? { status: 500, body: { code: 'internal', message: 'Something went wrong on our side.' } }
            : { body: { items: [n], next_cursor: null } },
      },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your notifications...');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load your notifications. Something went wrong on our side.");
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: `Unread: ${n.text}` })).toBeVisible();
  });

  it("loads 20 at a time: 'Load more' fetches the next page by its cursor", async () => {
    const firstPage = Array.from({ length: 20 }, (_, i) => makeNotification({ text: `Notice ${i}.` }));
    const { calls, user } = renderPage({
      routes: {
        'GET /notifications': (call) =>
          call.path.includes('cursor=next')
            ? { body: { items: [makeNotification({ text: 'Notice 20.' })], next_cursor: null } }
            : { body: { items: firstPage, next_cursor: 'next' } },
      },
    });
    await screen.findByText('Notice 19.');
    expect(calls.find((c) => c.path.startsWith('/notifications?'))!.path).toContain('limit=20');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Notice 20.')).toBeVisible();
    expect(within(list()).getAllByRole('link')).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
