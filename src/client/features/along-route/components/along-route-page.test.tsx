import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from '@/lib/router';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlongRouteRequest } from '@shared/along-route';
import { ASKED_YOU_LABEL, ROUTE_NEEDS_PLACES } from '@shared/places';
import { alongRoutePath, PAGE_PATHS } from '@shared/routes';
import { makeRequest, makeRide } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';
import { AlongRoutePage } from './along-route-page';

afterEach(() => vi.unstubAllGlobals());

const ride = makeRide({
  origin: 'Springfield, IL',
  destination: 'Decatur, IL',
  departure_date: '2099-06-01',
  is_own: true,
});
const ridePath = `/rides/${ride.id}`;
const listPath = `${ridePath}/along-route`;

const along = (over: Partial<AlongRouteRequest> = {}): AlongRouteRequest => ({
  ...makeRequest(),
  detour_miles: 2.4,
  asked: false,
  ...over,
});
const asked = along({ title: 'Seed corn to Niantic', asked: true, detour_miles: 3.6 });
const near = along({ title: 'Parcel to Illiopolis', detour_miles: 0.4 });

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

/** The page at its route (the router gives it the ride id), the current URL shown beside it. */
function renderPage(route = alongRoutePath(ride.id)) {
  return renderWithProviders(
    <Routes>
      <Route
        path={PAGE_PATHS.alongRoute}
        element={
          <>
            <AlongRoutePage />
            <Where />
          </>
        }
      />
    </Routes>,
    { route },
  );
}

function stubPage(list: Parameters<typeof stubApi>[0][string], extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    [`GET ${ridePath}`]: () => ({ body: ride }),
    [`GET ${listPath}`]: list,
    ...extra,
  });
}

const card = (title: string) => within(screen.getByRole('heading', { name: title }).closest('li')!);

describe('Requests along this route', () => {
  it("shows the ride, the corridor (5 miles), and the requests asked first with 'Asked you' and each detour", async () => {
    const calls = stubPage(() => ({ body: { items: [asked, near], next_cursor: null, corridor_miles: 5 } }));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Requests along this route' })).toBeVisible();
    expect(await screen.findByText('Springfield, IL → Decatur, IL, June 1, 2099')).toBeVisible();
    expect(screen.getByLabelText('Corridor')).toHaveValue('5');
    expect(screen.getByRole('link', { name: 'My Rides' })).toHaveAttribute('href', PAGE_PATHS.myRides);

    const list = await screen.findByRole('list', { name: 'Requests along this route' });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Seed corn to Niantic', 'Parcel to Illiopolis']);
    expect(card('Seed corn to Niantic').getByText(ASKED_YOU_LABEL)).toBeVisible();
    expect(card('Seed corn to Niantic').getByText('+4 mi detour')).toBeVisible();
    expect(card('Parcel to Illiopolis').queryByText(ASKED_YOU_LABEL)).not.toBeInTheDocument();
    expect(card('Parcel to Illiopolis').getByText('Less than 1 mi detour')).toBeVisible();
    expect(calls.find((c) => c.path.startsWith(listPath))?.path).toBe(`${listPath}?corridor=5&limit=20`);
  });

  it("'Corridor' changes the list and the URL; a URL's corridor is read back", async () => {
    const calls = stubPage(({ path }) => ({
      body: {
        items: path.includes('corridor=15') ? [near, along({ title: 'Hay to Mount Zion' })] : [near],
        next_cursor: null,
        corridor_miles: 5,
      },
    }));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('heading', { name: 'Parcel to Illiopolis' });
    await user.selectOptions(screen.getByLabelText('Corridor'), '15 miles');
    expect(await screen.findByRole('heading', { name: 'Hay to Mount Zion' })).toBeVisible();
    expect(screen.getByTestId('where')).toHaveTextContent(`${alongRoutePath(ride.id)}?corridor=15`);
    expect(calls.filter((c) => c.path.startsWith(listPath)).map((c) => c.path)).toEqual([
      `${listPath}?corridor=5&limit=20`,
      `${listPath}?corridor=15&limit=20`,
    ]);
  });

  it('a corridor from a shared link that is not a listed choice is still shown; a bad one falls back to 5', async () => {
    stubPage(() => ({ body: { items: [], next_cursor: null, corridor_miles: 7 } }));
    const { unmount } = renderPage(`${alongRoutePath(ride.id)}?corridor=7`);
    expect(screen.getByLabelText('Corridor')).toHaveValue('7');
    expect(screen.getByRole('option', { name: '7 miles' })).toBeInTheDocument();
    unmount();
    renderPage(`${alongRoutePath(ride.id)}?corridor=900`);
    expect(screen.getByLabelText('Corridor')).toHaveValue('5');
  });

  it("Accept works as in Browse: the same toast, and the card turns into 'Offer sent' in place", async () => {
    const calls = stubPage(() => ({ body: { items: [asked, near], next_cursor: null, corridor_miles: 5 } }), {
      'POST /bookings': () => ({ status: 201, body: {} }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Accept request Seed corn to Niantic' }));
    expect(await screen.findByText('Request accepted! Check your bookings to manage it.')).toBeVisible();
    expect(
      await card('Seed corn to Niantic').findByRole('button', { name: 'Offer sent for request Seed corn to Niantic' }),
    ).toBeDisabled();
    expect(
      card('Parcel to Illiopolis').getByRole('button', { name: 'Accept request Parcel to Illiopolis' }),
    ).toBeEnabled();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ request_id: asked.id });
    // Not reloaded: the server leaves offered requests out, which would drop the card instead.
    expect(calls.filter((c) => c.path.startsWith(listPath))).toHaveLength(1);
  });

  it("pages with 'Load more'", async () => {
    const calls = stubPage(({ path }) =>
      path.includes('cursor=c1')
        ? { body: { items: [along({ title: 'Last one' })], next_cursor: null, corridor_miles: 5 } }
        : { body: { items: [near], next_cursor: 'c1', corridor_miles: 5 } },
    );
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Last one' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith(listPath)).map((c) => c.path)).toEqual([
      `${listPath}?corridor=5&limit=20`,
      `${listPath}?corridor=5&limit=20&cursor=c1`,
    ]);
  });

  it('says so when nothing lies along the route', async () => {
    stubPage(() => ({ body: { items: [], next_cursor: null, corridor_miles: 5 } }));
    renderPage();
    expect(
      await screen.findByText('No requests along this route yet. Try a wider corridor, or check back later.'),
    ).toBeVisible();
  });

  it('a ride that is not mine (404) or has no places (409) is said in plain words, with the way back', async () => {
    const notFound = () => ({ status: 404, body: { code: 'not_found', message: 'Ride not found.' } });
    stubApi({ [`GET ${ridePath}`]: notFound, [`GET ${listPath}`]: notFound });
    const { unmount } = renderPage();
    expect(await screen.findByText("We couldn't find this ride. It may have been deleted.")).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to My Rides' })).toHaveAttribute('href', PAGE_PATHS.myRides);
    expect(screen.queryByLabelText('Corridor')).not.toBeInTheDocument();
    unmount();

    // Someone else's ride, as Browse shows it: readable, but the list is its driver's.
    stubApi({ [`GET ${ridePath}`]: () => ({ body: { ...ride, is_own: false } }), [`GET ${listPath}`]: notFound });
    const other = renderPage();
    expect(await screen.findByText("We couldn't find this ride. It may have been deleted.")).toBeVisible();
    other.unmount();

    stubPage(() => ({ status: 409, body: { code: 'route_needs_places', message: ROUTE_NEEDS_PLACES } }));
    renderPage();
    expect(await screen.findByText(ROUTE_NEEDS_PLACES)).toBeVisible();
    expect(screen.queryByLabelText('Corridor')).not.toBeInTheDocument();
  });

  it('any other failure shows the error with a working retry', async () => {
    let fail = true;
    stubPage(() =>
      fail
        ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } }
        : { body: { items: [near], next_cursor: null, corridor_miles: 5 } },
    );
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load requests along this route. Try later.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Parcel to Illiopolis' })).toBeVisible();
  });

  it('reads the ride by its id for the summary; a failed read says so with a retry, the list still shows', async () => {
    let fail = true;
    const calls = stubApi({
      [`GET ${ridePath}`]: () =>
        fail ? { status: 503, body: { code: 'internal_error', message: 'Try later.' } } : { body: ride },
      [`GET ${listPath}`]: () => ({ body: { items: [near], next_cursor: null, corridor_miles: 5 } }),
    });
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load this ride. Try later.");
    expect(await screen.findByRole('heading', { name: 'Parcel to Illiopolis' })).toBeVisible();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Springfield, IL → Decatur, IL, June 1, 2099')).toBeVisible();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // One ride read per attempt: never the My Rides list.
    expect(
      calls.filter((c) => c.path.startsWith('/rides/') && !c.path.includes('along-route')).map((c) => c.path),
    ).toEqual([ridePath, ridePath]);
  });
});

describe('Requests along this route: the route map (early access)', () => {
  const placed = makeRide({
    origin: 'Springfield, IL',
    destination: 'Decatur, IL',
    origin_point: { place_id: 1, lat: 39.8017, lon: -89.6437 },
    destination_point: { place_id: 2, lat: 39.8403, lon: -88.9548 },
    departure_date: '2099-06-01',
  });
  const seed = along({
    title: 'Seed corn to Niantic',
    pickup_point: { place_id: 3, lat: 39.82, lon: -89.4 },
    delivery_point: { place_id: 4, lat: 39.8545, lon: -89.1673 },
  });
  const early = (on: boolean) => () => ({ body: { on, saved: on, available: true } });
  const renderWith = (theRide: typeof placed, on: boolean) => {
    stubApi({
      [`GET /rides/${theRide.id}`]: () => ({ body: theRide }),
      [`GET /rides/${theRide.id}/along-route`]: () => ({
        body: { items: [seed], next_cursor: null, corridor_miles: 5 },
      }),
      'GET /account/early-access': early(on),
    });
    return renderPage(alongRoutePath(theRide.id));
  };

  it('with early access on, the map shows the route and the requests along it above the list', async () => {
    renderWith(placed, true);
    const map = await screen.findByRole('img', { name: /^Route map/ });
    expect(map).toHaveAccessibleName('Route map: from Springfield, IL to Decatur, IL, with 1 request along it.');
    expect(await screen.findByRole('heading', { name: 'Seed corn to Niantic' })).toBeVisible();
  });

  it('without early access there is no map', async () => {
    renderWith(placed, false);
    expect(await screen.findByRole('heading', { name: 'Seed corn to Niantic' })).toBeVisible();
    expect(screen.queryByRole('img', { name: /^Route map/ })).not.toBeInTheDocument();
  });

  it('a ride typed as free text has no map, even with early access on', async () => {
    renderWith(makeRide({ origin: 'Springfield, IL', destination: 'Decatur, IL' }), true);
    expect(await screen.findByRole('heading', { name: 'Seed corn to Niantic' })).toBeVisible();
    expect(screen.queryByRole('img', { name: /^Route map/ })).not.toBeInTheDocument();
  });
});
