import { ALL_CANCEL_REASONS, type BookingEvent } from '@shared/lifecycle';

/** ' by Ana Diaz', or nothing when the system acted. */
const by = (event: BookingEvent) => (event.actor ? ` by ${event.actor.full_name}` : '');

/** The Timeline's line for one event: what happened and who did it, e.g. 'Offered by Sam Lee', 'Picked up'. */
export function bookingEventText(event: BookingEvent): string {
  switch (event.type) {
    case 'offered':
      return `Offered${by(event)}`;
    case 'chosen':
      return `Driver chosen${by(event)}`;
    case 'declined':
      return `Offer declined${by(event)}`;
    case 'withdrawn':
      return `Offer withdrawn${by(event)}`;
    case 'cancelled':
      return `Cancelled${by(event)}`;
    case 'picked_up':
      return 'Picked up';
    case 'completed':
      return `Delivered${by(event)} with the delivery code`;
    case 'received':
      return `Marked as received${by(event)}`;
    case 'other_chosen':
      return 'Declined: another driver was chosen';
    case 'request_withdrawn':
      return `Request withdrawn${by(event)}`;
    case 'resolved':
      return 'Completed by RuralRoute’s decision';
  }
}

/** 'Reason: Plans changed', for an event that carries one. */
export function reasonText(reason: BookingEvent['reason']): string | null {
  return reason ? `Reason: ${ALL_CANCEL_REASONS[reason]}` : null;
}
