import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestDetail } from '@shared/lifecycle';
import { AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { profilePath } from '@shared/routes';
import { makeRequestDetail, NO_RATING, SAM, uuid } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';
import { RequestDetailPage } from './request-detail-page';

afterEach(() => vi.unstubAllGlobals());

const BEA = { id: uuid(), full_name: 'Bea Nunez', verified: false, ambassador: false };

function offered(): RequestDetail {
  return makeRequestDetail({
    compensation: '12.50',
    needed_by_date: '2099-07-04',
    offers: [
      {
        booking_id: uuid(),
        driver: SAM,
        driver_rating: { count: 12, average: 4.8 },
        offered_at: '2026-05-01T10:00:00.000Z',
      },
      { booking_id: uuid(), driver: BEA, driver_rating: NO_RATING, offered_at: '2026-05-01T11:00:00.000Z' },
    ],
  });
}

describe('Request detail page', () => {
  it('shows the request, its status and every pending offer with who (linking to their profile), their rating and when', async () => {
    const request = offered();
    stubApi({ [`GET /requests/${request.id}`]: () => ({ body: request }) });
    renderWithProviders(<RequestDetailPage id={request.id} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Feed sacks' })).toBeVisible();
    expect(screen.getByText('Open')).toBeVisible();
    expect(screen.getByText('Co-op, Main St → Hill Farm')).toBeVisible();
    expect(screen.getByText('Needed by: July 4, 2099')).toBeVisible();
    expect(screen.getByText('Compensation: $12.50')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Offers' })).toBeVisible();
    const offers = within(screen.getByRole('list', { name: 'Pending offers' })).getAllByRole('listitem');
    expect(offers).toHaveLength(2);
    const sam = within(offers[0]!);
    expect(sam.getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', `/dashboard/users/${SAM.id}`);
    expect(sam.getByText('4.8 ★ · 12 reviews')).toBeVisible();
    expect(sam.getByText('Rated 4.8 out of 5 from 12 reviews')).toHaveClass('sr-only');
    expect(sam.getByText(/^Offered/)).toHaveTextContent(/May 1, 2026/);
    expect(sam.getByRole('button', { name: 'Choose this driver: Sam Lee' })).toHaveTextContent('Choose this driver');
    expect(sam.getByRole('button', { name: 'Decline offer from Sam Lee' })).toHaveTextContent('Decline');
    const bea = within(offers[1]!);
    expect(bea.getByRole('link', { name: 'Bea Nunez' })).toHaveAttribute('href', `/dashboard/users/${BEA.id}`);
    expect(bea.getByText('New member')).toBeVisible();
    expect(screen.getByRole('link', { name: 'My Requests' })).toHaveAttribute('href', '/dashboard/requests');
  });

  it("shows Community's 'Ambassador' badge after an offering Community driver's name (issue 38), and no other", async () => {
    const request = offered();
    request.offers[1] = { ...request.offers[1]!, driver: { ...BEA, ambassador: true } };
    stubApi({ [`GET /requests/${request.id}`]: () => ({ body: request }) });
    renderWithProviders(<RequestDetailPage id={request.id} />);
    const offers = within(await screen.findByRole('list', { name: 'Pending offers' })).getAllByRole('listitem');
    expect(within(offers[1]!).getByRole('img', { name: AMBASSADOR_BADGE_LABEL })).toHaveTextContent('Ambassador');
    expect(within(offers[1]!).getByRole('link', { name: 'Bea Nunez' })).toBeVisible();
    expect(within(offers[0]!).queryByRole('img', { name: AMBASSADOR_BADGE_LABEL })).not.toBeInTheDocument();
  });

  it('says so when nobody has offered yet', async () => {
    const request = makeRequestDetail();
    stubApi({ [`GET /requests/${request.id}`]: () => ({ body: request }) });
    renderWithProviders(<RequestDetailPage id={request.id} />);
    expect(await screen.findByText('No offers yet. Drivers who accept your request will appear here.')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Choose/ })).not.toBeInTheDocument();
  });

  it("choosing asks 'Choose {name}?', then confirms the driver and shows the booking", async () => {
    let request = offered();
    const chosen = request.offers[0]!;
    const calls = stubApi({
      [`GET /requests/${request.id}`]: () => ({ body: request }),
      [`POST /bookings/${chosen.booking_id}/choose`]: () => {
        request = {
          ...request,
          status: 'matched',
          offers: [],
          booking: { id: chosen.booking_id, status: 'confirmed', driver: SAM },
        };
        return { body: {} };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Sam Lee' }));

    const dialog = screen.getByRole('alertdialog', { name: 'Choose Sam Lee?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Driver confirmed')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    expect(await screen.findByText('Matched')).toHaveClass('bg-blue-100');
    const booking = screen.getByRole('region', { name: 'Booking' });
    expect(within(booking).getByRole('link', { name: 'Sam Lee' })).toHaveAttribute('href', profilePath(SAM.id));
    expect(within(booking).getByText('Confirmed')).toHaveClass('bg-blue-100');
    expect(within(booking).getByRole('link', { name: 'View booking' })).toHaveAttribute(
      'href',
      `/dashboard/bookings/${chosen.booking_id}`,
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('No pending offers.')).toBeVisible();
    await waitFor(() => expect(screen.getByText(/^Status:/)).toHaveFocus());
  });

  it("on a paid request, choosing shows what it costs, refuses a malformed card, keeps a declined one's dialog, then pays", async () => {
    let request: RequestDetail = {
      ...offered(),
      payment_quote: {
        compensation_cents: 1250,
        fee_cents: 125,
        total_cents: 1375,
        credit_cents: 0,
        card_cents: 1375,
        fee_waived_by: null,
        test_mode: true,
        provider: 'test',
        publishable_key: null,
      },
    };
    const chosen = request.offers[0]!;
    let tries = 0;
    const calls = stubApi({
      [`GET /requests/${request.id}`]: () => ({ body: request }),
      [`POST /bookings/${chosen.booking_id}/choose`]: () => {
        tries += 1;
        if (tries === 1)
          return {
            status: 402,
            body: { code: 'card_declined', message: 'Your card was declined. Try another card.' },
          };
        request = {
          ...request,
          status: 'matched',
          offers: [],
          payment_quote: null,
          booking: { id: chosen.booking_id, status: 'confirmed', driver: SAM },
        };
        return { body: {} };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Sam Lee' }));

    const dialog = screen.getByRole('dialog', { name: 'Choose Sam Lee?' });
    expect(dialog).toHaveAccessibleDescription('You pay $13.75 now');
    expect(within(dialog).getByText('Delivery by Sam Lee: $12.50')).toBeVisible();
    expect(within(dialog).getByText('Service fee: $1.25')).toBeVisible();
    expect(within(dialog).getByText('Held by RuralRoute until the delivery is complete.')).toBeVisible();
    expect(within(dialog).getByText(/Test mode: no real money moves\./)).toBeVisible();

    const fill = async (number: string) => {
      await user.clear(within(dialog).getByLabelText('Card number'));
      await user.type(within(dialog).getByLabelText('Card number'), number);
    };
    await fill('4242 4242 4242 4241');
    await user.type(within(dialog).getByLabelText('Expiry'), '12/40');
    await user.type(within(dialog).getByLabelText('CVC'), '123');
    await user.type(within(dialog).getByLabelText('ZIP'), '05401');
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    expect(await within(dialog).findByText('Enter a valid card number')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await fill('4000 0000 0000 0002');
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    expect(await screen.findByText('Your card was declined. Try another card.')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Choose Sam Lee?' })).toBeVisible();
    await waitFor(() => expect(within(dialog).getByLabelText('Card number')).toHaveFocus());

    await fill('4242 4242 4242 4242');
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    expect(await screen.findByText('Driver confirmed')).toBeVisible();
    // The card goes to the server as typed (digits only), never through the send queue.
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      card: { number: '4242424242424242', expiry: '12/40', cvc: '123', zip: '05401' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Matched')).toBeVisible();
  });

  it('RuralRoute credit pays first: the dialog shows it and the card pays the rest; credit covering it all asks for no card', async () => {
    const quote = {
      compensation_cents: 1250,
      fee_cents: 125,
      total_cents: 1375,
      credit_cents: 500,
      card_cents: 875,
      fee_waived_by: null,
      test_mode: true,
      provider: 'test' as const,
      publishable_key: null,
    };
    let request: RequestDetail = { ...offered(), payment_quote: quote };
    const chosen = request.offers[0]!;
    const calls = stubApi({
      [`GET /requests/${request.id}`]: () => ({ body: request }),
      [`POST /bookings/${chosen.booking_id}/choose`]: () => ({ body: {} }),
    });
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Sam Lee' }));
    let dialog = screen.getByRole('dialog', { name: 'Choose Sam Lee?' });
    expect(dialog).toHaveAccessibleDescription('You pay $8.75 now');
    expect(within(dialog).getByText('RuralRoute credit: -$5.00')).toBeVisible();
    expect(within(dialog).getByLabelText('Card number')).toBeVisible();
    unmount();

    request = { ...request, payment_quote: { ...quote, credit_cents: 1375, card_cents: 0 } };
    renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Sam Lee' }));
    dialog = screen.getByRole('dialog', { name: 'Choose Sam Lee?' });
    expect(dialog).toHaveAccessibleDescription('You pay $0.00 now');
    expect(within(dialog).getByText('Your RuralRoute credit pays for this delivery: no card is needed.')).toBeVisible();
    expect(within(dialog).queryByLabelText('Card number')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Pay and confirm' }));
    expect(await screen.findByText('Driver confirmed')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({});
  });

  it("cancelling the dialog chooses nobody; 'Decline' declines at once", async () => {
    const request = offered();
    const bea = request.offers[1]!;
    const calls = stubApi({
      [`GET /requests/${request.id}`]: () => ({ body: request }),
      [`POST /bookings/${bea.booking_id}/decline`]: () => ({ body: {} }),
    });
    const user = userEvent.setup();
    renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Bea Nunez' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Decline offer from Bea Nunez' }));
    expect(await screen.findByText('Offer declined')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/bookings/${bea.booking_id}/decline`,
    ]);
    // The page reloads the request after the answer.
    await waitFor(() => expect(calls.filter((c) => c.path === `/requests/${request.id}`)).toHaveLength(2));
  });

  it('a refused choice toasts why and keeps the dialog to retry or cancel', async () => {
    const request = offered();
    stubApi({
      [`GET /requests/${request.id}`]: () => ({ body: request }),
      [`POST /bookings/${request.offers[0]!.booking_id}/choose`]: () => ({
        status: 409,
        body: { code: 'booking_state_changed', message: 'Changed.' },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<RequestDetailPage id={request.id} />);
    await user.click(await screen.findByRole('button', { name: 'Choose this driver: Sam Lee' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('This booking has changed. Reload the page to see where it stands.')).toBeVisible();
    expect(screen.getByRole('alertdialog', { name: 'Choose Sam Lee?' })).toBeVisible();
  });

  it("someone else's or a missing request is a clear not-found page", async () => {
    const id = uuid();
    stubApi({ [`GET /requests/${id}`]: () => ({ status: 404, body: { code: 'not_found', message: 'Not found' } }) });
    renderWithProviders(<RequestDetailPage id={id} />);
    expect(await screen.findByRole('heading', { name: 'Request not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to My Requests' })).toHaveAttribute('href', '/dashboard/requests');
  });

  it('an id that is not an id is not found without asking the server', () => {
    const calls = stubApi({});
    renderWithProviders(<RequestDetailPage id="nope" />);
    expect(screen.getByRole('heading', { name: 'Request not found' })).toBeVisible();
    expect(calls).toHaveLength(0);
  });

  it('a failed load shows an error with a retry', async () => {
    const request = makeRequestDetail();
    let fail = true;
    stubApi({
      [`GET /requests/${request.id}`]: () =>
        fail ? { status: 500, body: { code: 'internal_error', message: 'Down.' } } : { body: request },
    });
    const user = userEvent.setup();
    renderWithProviders(<RequestDetailPage id={request.id} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load this request. Down.");
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Feed sacks' })).toBeVisible();
  });
});
