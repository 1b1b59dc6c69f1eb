import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DETAILS_REQUIRED_MESSAGE,
  DETAILS_TOO_LONG_MESSAGE,
  DISPUTE_ERRORS,
  DISPUTE_HOLD_NOTICE,
  DISPUTE_REPORTED_TOAST,
  DISPUTE_RESPONDED_TOAST,
  ITEM_VALUE_MESSAGE,
  TOO_MANY_PHOTOS_MESSAGE,
} from '@shared/disputes';
import type { BookingDetail } from '@shared/lifecycle';
import { BookingDetailPage } from '@/features/bookings/components/booking-detail-page';
import { findToast } from '@/test/find-toast';
import { ADA, makeBookingDetail, makeBookingPayment, makeDispute, SAM } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';

afterEach(() => vi.unstubAllGlobals());

/** Ada Field's paid booking, picked up by Sam Lee: she may report a problem. */
const PICKED_UP: Partial<BookingDetail> = {
  my_role: 'requester',
  status: 'confirmed',
  actions: ['cancel', 'receive'],
  delivery_code: '482913',
  picked_up_at: '2026-05-02T12:00:00.000Z',
  payment: makeBookingPayment(),
  can_report_problem: true,
};

/** The same booking, delivered: a requester's 'Damaged' or 'Not delivered' is then a Delivery Guarantee claim. */
const COMPLETED: Partial<BookingDetail> = {
  ...PICKED_UP,
  status: 'completed',
  actions: [],
  delivery_code: null,
  payment: makeBookingPayment({ state: 'released', settled_at: '2026-05-03T09:00:00.000Z' }),
};

function renderBooking(booking: BookingDetail, routes: Parameters<typeof stubApi>[0] = {}) {
  const calls = stubApi({ [`GET /bookings/${booking.id}`]: () => ({ body: booking }), ...routes });
  const user = userEvent.setup();
  renderWithProviders(<BookingDetailPage id={booking.id} />);
  return { calls, user };
}

const posts = (calls: ReturnType<typeof stubApi>) => calls.filter((c) => c.method === 'POST');
const png = (name: string) => new File(['png'], name, { type: 'image/png' });

async function openReport(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Report a problem' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Report a problem' }));
  // The form's code loads with the first opening.
  await dialog.findByLabelText('What happened');
  return dialog;
}

describe("'Report a problem'", () => {
  it('is offered only when the server says so', async () => {
    renderBooking(makeBookingDetail({ ...PICKED_UP, can_report_problem: false }));
    await screen.findByRole('heading', { level: 1, name: 'Feed sacks' });
    expect(screen.queryByRole('button', { name: 'Report a problem' })).not.toBeInTheDocument();
  });

  it('requires what happened and the details, each message under its field, and sends nothing', async () => {
    const booking = makeBookingDetail(PICKED_UP);
    const { calls, user } = renderBooking(booking);
    const dialog = await openReport(user);
    // The form's code arrived after the dialog opened: its first field has the focus all the same.
    await waitFor(() => expect(dialog.getByLabelText('What happened')).toHaveFocus());
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast('Validation Error', 'Choose what happened');
    expect(dialog.getByLabelText('What happened')).toHaveAccessibleDescription('Choose what happened');
    expect(dialog.getByLabelText('What happened')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByLabelText('What happened')).toHaveFocus();
    expect(dialog.getByLabelText('Details')).toHaveAccessibleDescription(DETAILS_REQUIRED_MESSAGE);
    expect(posts(calls)).toHaveLength(0);
  });

  it('asks no item value before completion, nor of the driver, nor for a reason the guarantee does not cover', async () => {
    const { user } = renderBooking(makeBookingDetail(PICKED_UP));
    let dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Damaged');
    expect(dialog.queryByLabelText('Item value')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));

    const completed = makeBookingDetail(COMPLETED);
    renderBooking({ ...completed, my_role: 'driver' });
    dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Not delivered');
    expect(dialog.queryByLabelText('Item value')).not.toBeInTheDocument();
  });

  it("a requester's 'Damaged' after completion is a guarantee claim: the item value is shown, explained and required", async () => {
    const booking = makeBookingDetail(COMPLETED);
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/dispute`]: () => ({
        body: { ...booking, can_report_problem: false, dispute: makeDispute({ kind: 'claim', can_respond: false }) },
      }),
    });
    const dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Wrong item');
    expect(dialog.queryByLabelText('Item value')).not.toBeInTheDocument();
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Damaged');
    const value = dialog.getByLabelText('Item value');
    expect(value).toHaveAccessibleDescription(/Delivery Guarantee claim.*up to \$50\.00/);
    await user.type(dialog.getByLabelText('Details'), 'The sack was torn.');
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast('Validation Error', ITEM_VALUE_MESSAGE);
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(value).toHaveFocus();
    expect(posts(calls)).toHaveLength(0);

    await user.type(value, '$35.5');
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast(DISPUTE_REPORTED_TOAST);
    expect(posts(calls)[0]?.body).toEqual({ reason: 'damaged', details: 'The sack was torn.', item_value: '35.50' });
  });

  it('refuses more than 3 photos, then sends the report with its photos and shows the booking as answered', async () => {
    const booking = makeBookingDetail(PICKED_UP);
    const dispute = makeDispute({
      can_respond: false,
      photos: [{ id: '00000000-0000-4000-8000-0000000000b1', url: '/api/disputes/d1/photos/p1' }],
    });
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/dispute`]: () => ({
        body: {
          ...booking,
          actions: [],
          can_report_problem: false,
          dispute,
          payment: makeBookingPayment({ on_hold: true, refund_if_cancelled_cents: null }),
        },
      }),
    });
    const dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Damaged');
    await user.type(dialog.getByLabelText('Details'), 'The sack was torn.');
    const photos = dialog.getByLabelText('Photos');
    expect(photos).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');
    await user.upload(photos, [png('1.png'), png('2.png'), png('3.png'), png('4.png')]);
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast('Validation Error', TOO_MANY_PHOTOS_MESSAGE);
    expect(photos).toHaveAccessibleDescription(TOO_MANY_PHOTOS_MESSAGE);
    expect(posts(calls)).toHaveLength(0);

    await user.upload(photos, [png('torn.png'), png('floor.png')]);
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast(DISPUTE_REPORTED_TOAST);
    const sent = posts(calls)[0]!;
    expect(sent.path).toBe(`/bookings/${booking.id}/dispute`);
    expect(sent.form?.get('reason')).toBe('damaged');
    expect(sent.form?.get('details')).toBe('The sack was torn.');
    expect(sent.form?.has('item_value')).toBe(false);
    expect(sent.form?.getAll('photos').map((f) => (f as File).name)).toEqual(['torn.png', 'floor.png']);

    // The answered booking: no more actions, the problem with its photo and the hold, the payment 'On hold'.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const region = screen.getByRole('region', { name: 'Problem reported' });
    expect(within(region).getByText(DISPUTE_HOLD_NOTICE)).toBeVisible();
    expect(within(region).getByRole('img', { name: 'Photo 1 of 1 from Ada Field' })).toHaveAttribute(
      'src',
      '/api/disputes/d1/photos/p1',
    );
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    const payment = screen.getByRole('heading', { name: 'Payment' }).closest('div.rounded-lg') as HTMLElement;
    expect(within(payment).getByText(/^On hold:/)).toBeVisible();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Problem reported' })).toHaveFocus());
  });

  it("shows the server's field message under its field and keeps what was typed", async () => {
    const booking = makeBookingDetail(PICKED_UP);
    renderBooking(booking, {
      [`POST /bookings/${booking.id}/dispute`]: () => ({
        status: 400,
        body: { code: 'validation_error', message: DETAILS_TOO_LONG_MESSAGE },
      }),
    });
    const user = userEvent.setup();
    const dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Other');
    await user.type(dialog.getByLabelText('Details'), 'Gone.');
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast('Validation Error', DETAILS_TOO_LONG_MESSAGE);
    expect(dialog.getByLabelText('Details')).toHaveAccessibleDescription(DETAILS_TOO_LONG_MESSAGE);
    expect(dialog.getByLabelText('Details')).toHaveValue('Gone.');
  });

  it('a problem already reported toasts its text and reloads the booking', async () => {
    const booking = makeBookingDetail(PICKED_UP);
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/dispute`]: () => ({
        status: 409,
        body: { code: 'dispute_open', message: 'Open.' },
      }),
    });
    const dialog = await openReport(user);
    await user.selectOptions(dialog.getByLabelText('What happened'), 'Other');
    await user.type(dialog.getByLabelText('Details'), 'Gone.');
    await user.click(dialog.getByRole('button', { name: 'Report a problem' }));
    await findToast('Error', DISPUTE_ERRORS.dispute_open.message);
    await waitFor(() => expect(calls.filter((c) => c.path === `/bookings/${booking.id}`)).toHaveLength(2));
  });
});

describe("'Problem reported'", () => {
  it("the driver reads the report and gives the one 'Response'", async () => {
    const booking = makeBookingDetail({
      ...PICKED_UP,
      my_role: 'driver',
      actions: ['pickup'],
      can_report_problem: false,
      dispute: makeDispute(),
      payment: makeBookingPayment({ on_hold: true, fee_cents: null, total_cents: null, card_last4: null }),
    });
    const responded = {
      ...booking,
      dispute: makeDispute({
        can_respond: false,
        response: {
          author: SAM,
          details: 'It was whole when I left it.',
          created_at: '2026-05-03T10:00:00.000Z',
          photos: [],
        },
      }),
    };
    const { calls, user } = renderBooking(booking, {
      [`POST /bookings/${booking.id}/dispute/response`]: () => ({ body: responded }),
    });
    const region = await screen.findByRole('region', { name: 'Problem reported' });
    const term = (name: string) => within(region).getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(term('What happened')).toHaveTextContent('Damaged');
    expect(term('State')).toHaveTextContent('Open');
    expect(term('Reported by')).toHaveTextContent('Ada Field (Requester)');
    expect(term('Reported')).toHaveTextContent('May 3, 2026');
    expect(within(region).getByText(/The sack was torn/).textContent).toBe(
      'The sack was torn.\nHalf the feed was lost.',
    );
    expect(within(region).getByText(DISPUTE_HOLD_NOTICE)).toBeVisible();

    await user.click(within(region).getByRole('button', { name: 'Response' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Response' }));
    await user.click(await dialog.findByRole('button', { name: 'Send response' }));
    await findToast('Validation Error', DETAILS_REQUIRED_MESSAGE);
    await user.type(dialog.getByLabelText('Details'), 'It was whole when I left it.');
    await user.click(dialog.getByRole('button', { name: 'Send response' }));
    await findToast(DISPUTE_RESPONDED_TOAST);
    const sent = posts(calls)[0]!;
    expect(sent.path).toBe(`/bookings/${booking.id}/dispute/response`);
    expect(sent.form?.get('details')).toBe('It was whole when I left it.');
    expect(await within(region).findByRole('heading', { name: 'Response from you' })).toBeVisible();
    expect(within(region).queryByRole('button', { name: 'Response' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Problem reported' })).toHaveFocus());
  });

  it('once decided: Resolved, the decision in words, the note, the response; the payment as it ended', async () => {
    renderBooking(
      makeBookingDetail({
        ...COMPLETED,
        can_report_problem: false,
        payment: makeBookingPayment({
          state: 'partly_refunded',
          refunded_cents: 500,
          settled_at: '2026-05-04T09:00:00.000Z',
        }),
        dispute: makeDispute({
          state: 'resolved',
          can_respond: false,
          response: { author: SAM, details: 'It was whole.', created_at: '2026-05-03T10:00:00.000Z', photos: [] },
          decision: {
            decision: 'split',
            note: 'Both of you had a point.',
            refund_cents: 500,
            released_cents: 875,
            approved_cents: null,
            waiting_for_funds: false,
            decided_at: '2026-05-04T09:00:00.000Z',
          },
        }),
      }),
    );
    const region = await screen.findByRole('region', { name: 'Problem reported' });
    expect(within(region).getByText('State', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Resolved');
    expect(within(region).queryByText(DISPUTE_HOLD_NOTICE)).not.toBeInTheDocument();
    expect(within(region).getByRole('heading', { name: 'Response from Sam Lee' })).toBeVisible();
    expect(within(region).getByText('It was whole.')).toBeVisible();
    expect(within(region).getByText('Split: $5.00 refunded to the requester, $8.75 released.')).toBeVisible();
    expect(within(region).getByText('Both of you had a point.')).toBeVisible();
    expect(within(region).queryByRole('button')).not.toBeInTheDocument();
    const payment = screen.getByRole('heading', { name: 'Payment' }).closest('div.rounded-lg') as HTMLElement;
    expect(within(payment).getByText(/^Partly refunded \$5\.00:/)).toBeVisible();
  });

  it("an approved claim the reserve cannot pay yet says 'Waiting for funds'", async () => {
    renderBooking(
      makeBookingDetail({
        ...COMPLETED,
        can_report_problem: false,
        dispute: makeDispute({
          kind: 'claim',
          state: 'resolved',
          can_respond: false,
          item_value_cents: 3500,
          reporter: { ...ADA, role: 'requester' },
          decision: {
            decision: 'approve',
            note: 'Sorry for the loss.',
            refund_cents: null,
            released_cents: null,
            approved_cents: 3500,
            waiting_for_funds: true,
            decided_at: '2026-05-04T09:00:00.000Z',
          },
        }),
      }),
    );
    const region = await screen.findByRole('region', { name: 'Problem reported' });
    expect(within(region).getByText('Reported by', { selector: 'dt' }).nextElementSibling).toHaveTextContent('You');
    expect(within(region).getByText('Item value', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
      '$35.00 (Delivery Guarantee claim)',
    );
    expect(within(region).getByText('Claim approved: $35.00.')).toBeVisible();
    expect(within(region).getByText(/^Waiting for funds/)).toBeVisible();
  });
});
