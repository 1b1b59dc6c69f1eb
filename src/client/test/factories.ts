import type { AdminDispute, DisputeView } from '@shared/disputes';
import type { BookingDetail, RequestDetail } from '@shared/lifecycle';
import type { Booking, DeliveryRequest, Ride } from '@shared/marketplace';
import type { BookingPayment } from '@shared/payments';

let seq = 0;
/** A valid v4-shaped uuid, unique per call, so the contract's uuid checks pass. */
export function uuid() {
  seq += 1;
  return `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
}

/** Nobody has reviewed the person yet: cards show 'New member'. */
export const NO_RATING = { count: 0, average: null };

export function makeRide(over: Partial<Ride> = {}): Ride {
  return {
    id: uuid(),
    origin: 'Oakville',
    destination: 'Millbrook',
    departure_date: '2099-11-21',
    departure_time: null,
    available_space: null,
    notes: null,
    status: 'active',
    created_at: '2026-01-01T10:00:00.000Z',
    poster_name: 'Ada Field',
    poster_id: ADA.id,
    poster_rating: NO_RATING,
    poster_verified: false,
    poster_ambassador: false,
    priority: false,
    is_own: true,
    // Typed as free text: no place chosen.
    origin_point: null,
    destination_point: null,
    stops: [],
    ...over,
  };
}

export function makeRequest(over: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    id: uuid(),
    title: 'Feed from the co-op',
    description: 'Two bags of chicken feed',
    pickup_location: 'Co-op, Main St',
    delivery_location: 'Hill Farm',
    needed_by_date: null,
    compensation: null,
    status: 'open',
    created_at: '2026-01-01T10:00:00.000Z',
    requester_name: 'Ada Field',
    requester_id: ADA.id,
    requester_rating: NO_RATING,
    requester_verified: false,
    requester_ambassador: false,
    priority: false,
    is_own: false,
    accepted_by_me: false,
    // Typed as free text: no place chosen.
    pickup_point: null,
    delivery_point: null,
    ...over,
  };
}

export function makeBooking(over: Partial<Booking> = {}): Booking {
  return {
    id: uuid(),
    request_id: uuid(),
    status: 'pending',
    created_at: '2026-01-01T10:00:00.000Z',
    driver_name: 'Sam Lee',
    request: {
      title: 'Feed from the co-op',
      pickup_location: 'Co-op, Main St',
      delivery_location: 'Hill Farm',
      requester_name: 'Ada Field',
    },
    ...over,
  };
}

export const ADA = {
  id: '00000000-0000-4000-8000-00000000a0da',
  full_name: 'Ada Field',
  verified: false,
  ambassador: false,
};
export const SAM = {
  id: '00000000-0000-4000-8000-000000005a11',
  full_name: 'Sam Lee',
  verified: false,
  ambassador: false,
};

/** A pending booking seen by its driver (Sam Lee) on Ada Field's request. */
export function makeBookingDetail(over: Partial<BookingDetail> = {}): BookingDetail {
  return {
    id: uuid(),
    status: 'pending',
    created_at: '2026-05-01T10:00:00.000Z',
    my_role: 'driver',
    request: {
      id: uuid(),
      title: 'Feed sacks',
      description: 'Two bags of chicken feed',
      pickup_location: 'Co-op, Main St',
      delivery_location: 'Hill Farm',
      needed_by_date: '2099-07-04',
      compensation: '12.50',
      status: 'open',
    },
    driver: SAM,
    requester: ADA,
    events: [
      {
        id: 'e1',
        type: 'offered',
        at: '2026-05-01T10:00:00.000Z',
        actor: { ...SAM, role: 'driver' },
        reason: null,
        details: null,
      },
    ],
    actions: ['withdraw'],
    picked_up_at: null,
    delivery_code: null,
    has_photo: false,
    payment_quote: null,
    payment: null,
    dispute: null,
    can_report_problem: false,
    cancellation: null,
    ...over,
  };
}

/** Ada Field's open request, as its owner sees it. */
export function makeRequestDetail(over: Partial<RequestDetail> = {}): RequestDetail {
  return {
    id: uuid(),
    title: 'Feed sacks',
    description: 'Two bags of chicken feed',
    pickup_location: 'Co-op, Main St',
    delivery_location: 'Hill Farm',
    needed_by_date: null,
    compensation: null,
    status: 'open',
    created_at: '2026-05-01T09:00:00.000Z',
    offers: [],
    booking: null,
    payment_quote: null,
    ...over,
  };
}

/** A payment held for a booking, as its requester sees it ($12.50 + $1.25, card 4242, test mode). */
export function makeBookingPayment(over: Partial<BookingPayment> = {}): BookingPayment {
  return {
    state: 'held',
    compensation_cents: 1250,
    fee_cents: 125,
    total_cents: 1375,
    card_last4: '4242',
    refunded_cents: 0,
    chargeback: false,
    held_at: '2026-05-02T09:00:00.000Z',
    settled_at: null,
    test_mode: true,
    on_hold: false,
    credit_cents: 0,
    refund_if_cancelled_cents: 1375,
    ...over,
  };
}

/** Ada Field's open report that the parcel arrived damaged, while the money was held; Sam Lee may respond. */
export function makeDispute(over: Partial<DisputeView> = {}): DisputeView {
  return {
    id: uuid(),
    kind: 'hold',
    state: 'open',
    reason: 'damaged',
    details: 'The sack was torn.\nHalf the feed was lost.',
    item_value_cents: null,
    created_at: '2026-05-03T09:00:00.000Z',
    reporter: { ...ADA, role: 'requester' },
    photos: [],
    response: null,
    decision: null,
    can_respond: true,
    ...over,
  };
}

/** The moderators' row of makeDispute's dispute on a $13.75 payment still held. */
export function makeAdminDispute(over: Partial<AdminDispute> = {}): AdminDispute {
  return {
    ...makeDispute({ can_respond: false }),
    booking: {
      id: uuid(),
      status: 'confirmed',
      title: 'Feed sacks',
      picked_up_at: '2026-05-02T12:00:00.000Z',
      ended_at: null,
    },
    driver: { ...SAM, email: 'sam@example.com' },
    requester: { ...ADA, email: 'ada@example.com' },
    payment: {
      state: 'held',
      compensation_cents: 1250,
      fee_cents: 125,
      total_cents: 1375,
      refunded_cents: 0,
      chargeback: false,
    },
    claim_cap_cents: null,
    events: [
      { type: 'offered', at: '2026-05-01T10:00:00.000Z', actor_name: 'Sam Lee' },
      { type: 'chosen', at: '2026-05-02T09:00:00.000Z', actor_name: 'Ada Field' },
      { type: 'picked_up', at: '2026-05-02T12:00:00.000Z', actor_name: 'Sam Lee' },
    ],
    messages: [{ sender_name: 'Sam Lee', body: 'On my way.', at: '2026-05-02T11:00:00.000Z' }],
    ledger: {
      transactions: [
        {
          id: 't1',
          kind: 'hold',
          at: '2026-05-02T09:00:00.000Z',
          key: 'hold:1',
          entries: [
            { account: 'outside', amount_cents: -1375 },
            { account: 'held:1', amount_cents: 1375 },
          ],
        },
      ],
    },
    decided_by: null,
    ...over,
  };
}
