import type { Booking, DeliveryRequest, Ride } from '../../shared/marketplace';

let seq = 0;
/** A valid v4-shaped uuid, unique per call, so the contract's uuid checks pass. */
export function uuid() {
  seq += 1;
  return `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
}

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
    is_own: true,
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
    is_own: false,
    accepted_by_me: false,
    ...over,
  };
}

export function makeBooking(over: Partial<Booking> = {}): Booking {
  return {
    id: uuid(),
    request_id: uuid(),
    status: 'pending',
    created_at: '2026-01-01T10:00:00.000Z',
    request: {
      title: 'Feed from the co-op',
      pickup_location: 'Co-op, Main St',
      delivery_location: 'Hill Farm',
      requester_name: 'Ada Field',
    },
    ...over,
  };
}
