import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from '@/lib/router';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  notificationLink,
  notificationText,
  type Notification,
  type NotificationData,
  type NotificationType,
} from '@shared/notifications';
import { alongRoutePath, PAGE_PATHS } from '@shared/routes';
import { NotificationsPage } from '@/features/notifications';
import { uuid } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

/** A notification as the server writes it: its text and link come from the shared wording. */
function notification(type: NotificationType, data: NotificationData): Notification {
  return {
    id: uuid(),
    type,
    text: notificationText(type, data),
    link: notificationLink(type, data),
    created_at: '2026-05-01T10:00:00.000Z',
    read_at: null,
  };
}

function Destination() {
  const { pathname, search } = useLocation();
  return <p>Opened {`${pathname}${search}`}</p>;
}

const rideId = uuid();
const ask = notification('ride_ask', {
  actor_name: 'Rita Requester',
  title: 'Seed corn',
  ride_id: rideId,
  request_id: uuid(),
});
const match = notification('search_match', {
  count: 2,
  kind: 'requests',
  search_id: uuid(),
  search_name: 'Requests near Decatur, IL',
  path: `${PAGE_PATHS.browseRequests}?near=1201&within=25`,
});
const routeMatch = notification('search_match', { count: 1, kind: 'requests', search_id: uuid(), ride_id: rideId });

describe('route alerts and asks on the notifications page', () => {
  it("'ride_ask' and 'search_match' read in plain words and lead to the along-route page or the saved Browse", async () => {
    stubApi({
      'GET /notifications': () => ({ body: { items: [ask, match, routeMatch], next_cursor: null } }),
      'GET /notifications/unread': () => ({ body: { count: 3 } }),
      'POST /notifications/read': () => ({ status: 204 }),
    });
    const user = userEvent.setup();
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.notifications} element={<NotificationsPage />} />
        <Route path="*" element={<Destination />} />
      </Routes>,
      { route: PAGE_PATHS.notifications },
    );
    const list = within(await screen.findByRole('list', { name: 'Your notifications' }));
    expect(list.getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Unread: Rita Requester asked you to carry “Seed corn” on your ride.', alongRoutePath(rideId)],
      [
        'Unread: 2 new requests match your search “Requests near Decatur, IL”.',
        `${PAGE_PATHS.browseRequests}?near=1201&within=25`,
      ],
      ['Unread: A new request is along your route.', alongRoutePath(rideId)],
    ]);
    await user.click(list.getByRole('link', { name: /2 new requests match/ }));
    expect(await screen.findByText(`Opened ${PAGE_PATHS.browseRequests}?near=1201&within=25`)).toBeVisible();
  });
});
