import { onlineManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingDetail } from '@shared/lifecycle';
import { QUEUED_MESSAGE } from '@/lib/api-client';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { ADA, makeBookingDetail, makeBookingPayment, SAM, uuid } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { BookingDetailPage, CHARGEBACK_HOLD_TEXT } from './booking-detail-page';

afterEach(() => vi.unstubAllGlobals());

const CONFIRMED_EVENTS: BookingDetail['events'] = [
  ...makeBookingDetail().events,
  {
    id: 'e2',
    type: 'chosen',
    at: '2026-05-02T09:00:00.000Z',
    actor: { ...ADA, role: 'requester' },
    reason: null,
    details: null,
  },
];

/** A confirmed booking as its requester sees it, with the code to give at handoff. */
const CONFIRMED_FOR_REQUESTER: Partial<BookingDetail> = {
  my_role: 'requester',
  status: 'confirmed',
  actions: ['cancel', 'receive'],
  delivery_code: '482913',
  events: CONFIRMED_EVENTS,
};

/**
 * The booking page with `GET /bookings/:id` answering `booking` (or what `booking()` returns now), and whatever
 * else `routes` adds.
 */
function renderBooking(booking: BookingDetail | (() => BookingDetail), routes: Parameters<typeof stubApi>[0] = {}) {
  const current = typeof booking === 'function' ? booking : () => booking;
  const calls = stubApi({ [`GET /bookings/${current().id}`]: () => ({ body: current() }), ...routes });
  const user = userEvent.setup();
  const { client } = renderWithProviders(<BookingDetailPage id={current().id} />);
  return { calls, user, client };
}

const buttonNames = () => screen.queryAllByRole('button').map((b) => b.textContent);
const gets = (calls: ReturnType<typeof stubApi>, id: string) =>
  calls.filter((c) => c.method === 'GET' && c.path === `/bookings/${id}`);

describe('Booking detail page', () => {
  it('shows the request, both people with their role, the status and the timeline', async () => {
    renderBooking(makeBookingDetail());
    expect(await screen.findByRole('heading', { level: 1, name: 'Feed sacks' })).toBeVisible();
    expect(screen.getByText('You are the driver.')).toBeVisible();
    expect(screen.getByText('Pending')).toHaveClass('bg-yellow-100');
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(term('Pickup')).toHaveTextContent('Co-op, Main St');
    expect(term('Delivery')).toHaveTextContent('Hill Farm');
    expect(term('Needed by')).toHaveTextContent('July 4, 2099');
    expect(term('Compensation')).toHaveTextContent('$12.50');
    expect(term('Driver')).toHaveTextContent('Sam Lee (you)');
    expect(term('Requester')).toHaveTextContent('Ada Field');
    const timeline = screen.getByRole('heading', { name: 'Timeline' }).parentElement!.parentElement!;
    expect(within(timeline).getByText('Offered by Sam Lee')).toBeVisible();
    expect(within(timeline).getByText(/May 1, 2026/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'My Bookings' })).toHaveAttribute('href', '/dashboard/bookings');
  });

  it.each<[string, Partial<BookingDetail>, string[]]>([
    ['driver, pending', { actions: ['withdraw'] }, ['Withdraw offer']],
    ['requester, pending', { my_role: 'requester', actions: ['choose', 'decline'] }, ['Choose this driver', 'Decline']],
    [
      'driver, confirmed',
      { status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] },
      ['Mark as picked up', 'Complete delivery', 'Cancel booking'],
    ],
    [
      'requester, confirmed',
      { my_role: 'requester', status: 'confirmed', actions: ['cancel', 'receive'], delivery_code: '482913' },
      ['Mark as received', 'Cancel booking'],
    ],
    ['either, completed', { status: 'completed', actions: [] }, []],
  ])('%s: renders exactly the actions the server allows', async (_case, over, buttons) => {
    renderBooking(makeBookingDetail(over));
    await screen.findByRole('heading', { level: 1, name: 'Feed sacks' });
    expect(buttonNames()).toEqual(buttons);
  });

  it('the requester sees the delivery code to give at handoff', async () => {
    renderBooking(
      makeBookingDetail({
        ...CONFIRMED_FOR_REQUESTER,
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Delivery code' })).toBeVisible();
    expect(screen.getByTestId('delivery-code')).toHaveTextContent('482913');
    expect(screen.getByText('Requester', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Ada Field (you)');
    expect(screen.getByText('Driver chosen by Ada Field')).toBeVisible();
    expect(screen.getByRole('link', { name: 'My Bookings' })).toHaveAttribute(
      'href',
      '/dashboard/bookings?tab=requester',
    );
  });

  it("shows a paid booking's payment, and the cancel dialog says what the cancellation refunds", async () => {
    const { user } = renderBooking(
      makeBookingDetail({
        ...CONFIRMED_FOR_REQUESTER,
        payment: makeBookingPayment(),
      }),
    );
    const heading = await screen.findByRole('heading', { name: 'Payment' });
    const section = heading.closest('div.rounded-lg') as HTMLElement;
    expect(within(section).getByText('Sam Lee receives $12.50')).toBeVisible();
    expect(
      within(section).getByText(/You paid \$13\.75 \(service fee \$1\.25\) with the card ending in 4242/),
    ).toBeVisible();
    expect(within(section).getByText(/^Held:/)).toBeVisible();
    expect(within(section).getByText('Test mode: no real money moves.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel this booking?' })).toHaveAccessibleDescription(
      'Say why, so the other person knows. The request opens again for drivers to offer. You will be refunded $13.75.',
    );
  });

  it("the driver sees what they receive, not the requester's card; a partial refund says how much went back", async () => {
    renderBooking(
      makeBookingDetail({
        status: 'cancelled',
        actions: [],
        // As the driver sees it: no fee, total or card.
        payment: makeBookingPayment({
          state: 'partly_refunded',
          fee_cents: null,
          total_cents: null,
          card_last4: null,
          refunded_cents: 750,
          settled_at: '2026-05-03T09:00:00.000Z',
          test_mode: false,
          refund_if_cancelled_cents: null,
        }),
      }),
    );
    const heading = await screen.findByRole('heading', { name: 'Payment' });
    const section = heading.closest('div.rounded-lg') as HTMLElement;
    expect(within(section).getByText('Sam Lee receives $12.50')).toBeVisible();
    expect(within(section).queryByText(/You paid/)).not.toBeInTheDocument();
    expect(within(section).getByText(/^Partly refunded \$7\.50:/)).toBeVisible();
    expect(within(section).queryByText('Test mode: no real money moves.')).not.toBeInTheDocument();
  });

  it("a card dispute's hold reads 'Chargeback · On hold' and says the bank is reviewing it; a won one, the state", async () => {
    const booking = makeBookingDetail({ status: 'confirmed', actions: [], events: CONFIRMED_EVENTS });
    let payment = makeBookingPayment({ on_hold: true, chargeback: true, refund_if_cancelled_cents: null });
    const { client } = renderBooking(() => ({ ...booking, payment }));
    const heading = await screen.findByRole('heading', { name: 'Payment' });
    const section = heading.closest('div.rounded-lg') as HTMLElement;
    expect(within(section).getByText(/^Chargeback · On hold:/)).toBeVisible();
    expect(within(section).getByText(CHARGEBACK_HOLD_TEXT)).toBeVisible();
    expect(within(section).queryByText(/until a moderator decides/)).not.toBeInTheDocument();
    expect(buttonNames()).toEqual([]);

    // Won: the hold is lifted and the payment shows its own state again.
    payment = makeBookingPayment({ chargeback: false });
    void client.invalidateQueries({ queryKey: queryKeys.bookingDetail(booking.id) });
    expect(await within(section).findByText(/^Held:/)).toBeVisible();
    expect(within(section).queryByText(CHARGEBACK_HOLD_TEXT)).not.toBeInTheDocument();
  });

  it("a reported problem's hold keeps its own wording", async () => {
    renderBooking(
      makeBookingDetail({
        status: 'confirmed',
        actions: [],
        payment: makeBookingPayment({ on_hold: true, refund_if_cancelled_cents: null }),
      }),
    );
    const heading = await screen.findByRole('heading', { name: 'Payment' });
    const section = heading.closest('div.rounded-lg') as HTMLElement;
    expect(within(section).getByText(/^On hold:/)).toBeVisible();
    expect(within(section).getByText('Held by RuralRoute until a moderator decides.')).toBeVisible();
    expect(within(section).queryByText(CHARGEBACK_HOLD_TEXT)).not.toBeInTheDocument();
  });

  it('the driver never renders a delivery code, even if one were sent', async () => {
    renderBooking(
      makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'], delivery_code: '482913' }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Feed sacks' });
    expect(screen.queryByText('482913')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delivery code' })).not.toBeInTheDocument();
  });

  it("'Withdraw offer' asks first, then toasts 'Offer withdrawn' and reloads the booking", async () => {
    let booking = makeBookingDetail();
    const { calls, user } = renderBooking(() => booking, {
      [`POST /bookings/${booking.id}/withdraw`]: () => {
        booking = { ...booking, status: 'cancelled', actions: [] };
        return { body: booking };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Withdraw offer' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Withdraw your offer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw offer' }));
    expect(await screen.findByText('Offer withdrawn')).toBeVisible();
    expect(await screen.findByText('Cancelled')).toHaveClass('bg-red-100');
    expect(screen.queryByRole('button', { name: 'Withdraw offer' })).not.toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    // Focus is not lost with the button: it goes to the status.
    await waitFor(() => expect(screen.getByText(/^Status:/)).toHaveFocus());
  });

  it("'Mark as picked up' sends at once and toasts", async () => {
    const booking = makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] });
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/pickup`]: () => ({ body: booking }),
    });
    await user.click(await screen.findByRole('button', { name: 'Mark as picked up' }));
    expect(await screen.findByText('Marked as picked up')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/bookings/${booking.id}/pickup`]);
    await waitFor(() => expect(gets(calls, booking.id)).toHaveLength(2));
  });

  it('a booking that changed meanwhile toasts so and reloads', async () => {
    const booking = makeBookingDetail({ my_role: 'requester', actions: ['choose', 'decline'] });
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/decline`]: () => ({
        status: 409,
        body: { code: 'booking_state_changed', message: 'Changed.' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('This booking has changed. Reload the page to see where it stands.')).toBeVisible();
    await waitFor(() => expect(gets(calls, booking.id)).toHaveLength(2));
  });

  it('a cancelled booking says who cancelled and why', async () => {
    renderBooking(
      makeBookingDetail({
        status: 'cancelled',
        actions: [],
        cancellation: { by: { ...ADA, role: 'requester' }, reason: 'item_not_ready', details: 'The mill is closed.' },
        events: [
          ...CONFIRMED_EVENTS,
          {
            id: 'e3',
            type: 'cancelled',
            at: '2026-05-03T09:00:00.000Z',
            actor: { ...ADA, role: 'requester' },
            reason: 'item_not_ready',
            details: 'The mill is closed.',
          },
        ],
      }),
    );
    const card = (await screen.findByRole('heading', { name: 'Cancelled' })).parentElement!.parentElement!;
    expect(within(card).getByText('Cancelled by Ada Field (Requester).')).toBeVisible();
    expect(within(card).getByText('Reason: Item not ready')).toBeVisible();
    expect(within(card).getByText('Details: The mill is closed.')).toBeVisible();
    expect(screen.getByText('Cancelled by Ada Field')).toBeVisible();
  });

  it('shows the handoff photo with a text alternative', async () => {
    const booking = makeBookingDetail({ status: 'completed', actions: [], has_photo: true });
    renderBooking(booking);
    const photo = await screen.findByRole('img', { name: /handoff of "Feed sacks"/ });
    expect(photo).toHaveAttribute('src', `/api/bookings/${booking.id}/photo`);
  });

  it("someone else's or a missing booking is a clear not-found page", async () => {
    const id = uuid();
    stubApi({ [`GET /bookings/${id}`]: () => ({ status: 404, body: { code: 'not_found', message: 'Not found' } }) });
    renderWithProviders(<BookingDetailPage id={id} />);
    expect(await screen.findByRole('heading', { name: 'Booking not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to My Bookings' })).toHaveAttribute('href', '/dashboard/bookings');
  });
});

describe("'Cancel booking' dialog", () => {
  const confirmed = () => makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] });

  it("refuses no reason with 'Validation Error' and the reason's message, and sends nothing", async () => {
    const booking = confirmed();
    const { calls, user } = renderBooking(booking);
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Cancel this booking?' }));
    await user.click(dialog.getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Please choose a reason')).toHaveLength(2);
    expect(dialog.getByLabelText('Reason')).toHaveAccessibleDescription('Please choose a reason');
    expect(dialog.getByLabelText('Reason')).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses details of 501 characters', async () => {
    const booking = confirmed();
    const { calls, user } = renderBooking(booking);
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.selectOptions(dialog.getByLabelText('Reason'), 'Plans changed');
    fireEvent.change(dialog.getByLabelText('Details'), { target: { value: 'x'.repeat(501) } });
    await user.click(dialog.getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Details must be less than 500 characters')).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("sends the reason's code and the details, toasts 'Booking cancelled' and closes", async () => {
    const booking = confirmed();
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/cancel`]: () => ({ body: booking }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    const dialog = within(screen.getByRole('dialog'));
    expect(dialog.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Choose a reason',
      'Plans changed',
      "Can't make it in time",
      'Item not ready',
      'Other',
    ]);
    await user.selectOptions(dialog.getByLabelText('Reason'), "Can't make it in time");
    await user.type(dialog.getByLabelText('Details'), '  Truck broke down  ');
    await user.click(dialog.getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Booking cancelled')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reason: 'too_late', details: 'Truck broke down' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("'Keep booking' closes it without sending", async () => {
    const { calls, user } = renderBooking(confirmed());
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    await user.click(screen.getByRole('button', { name: 'Keep booking' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel booking' })).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe("'Complete delivery' dialog", () => {
  const confirmed = () => makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] });

  it('asks for the code with a numeric keyboard and an optional photo', async () => {
    const { user } = renderBooking(confirmed());
    await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Complete delivery' }));
    expect(dialog.getByLabelText('Delivery code')).toHaveAttribute('inputmode', 'numeric');
    expect(dialog.getByLabelText('Delivery code')).toHaveFocus();
    expect(dialog.getByLabelText('Photo of the handoff')).toHaveAttribute('type', 'file');
    expect(dialog.getByLabelText('Photo of the handoff')).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');
  });

  it("a wrong code toasts 'Error' / 'That delivery code is not correct.' and keeps the dialog for another try", async () => {
    const booking = confirmed();
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/complete`]: () => ({
        status: 422,
        body: { code: 'wrong_delivery_code', message: 'That delivery code is not correct.' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Delivery code'), '111111');
    await user.click(dialog.getByRole('button', { name: 'Complete delivery' }));
    expect(await screen.findByText('That delivery code is not correct.')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Complete delivery' })).toBeVisible();
    await waitFor(() => expect(dialog.getByLabelText('Delivery code')).toHaveFocus());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: '111111' });
  });

  it('refuses a code that is not 6 digits without sending it', async () => {
    const { calls, user } = renderBooking(confirmed());
    await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Delivery code'), '12a');
    await user.click(dialog.getByRole('button', { name: 'Complete delivery' }));
    expect(await screen.findByText('Validation Error')).toBeVisible();
    expect(screen.getAllByText('Enter the 6-digit delivery code')).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('refuses a photo that is not a supported image', async () => {
    const { calls, user } = renderBooking(confirmed());
    await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Delivery code'), '482913');
    const pdf = new File(['%PDF'], 'proof.pdf', { type: 'application/pdf' });
    fireEvent.change(dialog.getByLabelText('Photo of the handoff'), { target: { files: [pdf] } });
    await user.click(dialog.getByRole('button', { name: 'Complete delivery' }));
    expect(
      await screen.findAllByText('That file is not a supported image (JPEG, PNG or WebP up to 10 MB).'),
    ).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("sends the code and the photo as multipart and toasts 'Delivery completed'", async () => {
    const booking = confirmed();
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/complete`]: () => ({ body: booking }),
    });
    await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.type(dialog.getByLabelText('Delivery code'), '482913');
    const photo = new File(['png'], 'handoff.png', { type: 'image/png' });
    await user.upload(dialog.getByLabelText('Photo of the handoff'), photo);
    await user.click(dialog.getByRole('button', { name: 'Complete delivery' }));
    expect(await screen.findByText('Delivery completed')).toBeVisible();
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.headers.has('Content-Type')).toBe(false);
    expect((sent.body as { code: string }).code).toBe('482913');
    expect((sent.body as { photo: File }).photo.name).toBe('handoff.png');
  });
});

describe('A handover at a door with no signal', () => {
  it('keeps the code and the photo on the device, closes the dialog, and completes when the signal returns', async () => {
    const booking = makeBookingDetail({ status: 'confirmed', actions: ['cancel', 'pickup', 'complete'] });
    const { calls, user, client } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/complete`]: () => ({ body: booking }),
    });
    client.setQueryData(queryKeys.session, sessionOf(SAM));
    const stop = sendQueue.start(client);
    try {
      await user.click(await screen.findByRole('button', { name: 'Complete delivery' }));
      const dialog = within(screen.getByRole('dialog'));
      await user.type(dialog.getByLabelText('Delivery code'), '482913');
      await user.upload(
        dialog.getByLabelText('Photo of the handoff'),
        new File(['png'], 'door.png', { type: 'image/png' }),
      );
      act(() => onlineManager.setOnline(false));
      await user.click(dialog.getByRole('button', { name: 'Complete delivery' }));
      expect(await screen.findByText(QUEUED_MESSAGE)).toBeVisible();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(sendQueue.waiting().map((e) => e.label)).toEqual(['Complete the delivery']);
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

      act(() => onlineManager.setOnline(true));
      expect(await screen.findByText('Delivery completed')).toBeVisible();
      const sent = calls.filter((c) => c.method === 'POST');
      expect(sent).toHaveLength(1);
      expect((sent[0]!.body as { code: string }).code).toBe('482913');
      expect((sent[0]!.body as { photo: File }).photo.name).toBe('door.png');
      await waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    } finally {
      stop();
      await sendQueue.clear();
    }
  });
});

describe("'Mark as received'", () => {
  it('asks first, then completes without the code', async () => {
    const booking = makeBookingDetail({
      my_role: 'requester',
      status: 'confirmed',
      actions: ['cancel', 'receive'],
      delivery_code: '482913',
      driver: SAM,
    });
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/receive`]: () => ({ body: booking }),
    });
    await user.click(await screen.findByRole('button', { name: 'Mark as received' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Mark as received?' }));
    await user.click(dialog.getByRole('button', { name: 'Mark as received' }));
    expect(await screen.findByText('Delivery completed')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/bookings/${booking.id}/receive`, body: {} });
  });
});
