import type { Activity } from '@shared/marketplace';

type BookingActivity = Extract<Activity, { type: 'booking_event' }>;

/**
 * A lifecycle step in words, from where I stand: what I did ('You picked up "Feed sacks"'), or what the other
 * person did to me ('Ana Diaz chose you to deliver "Feed sacks"'). Without a name (the system acted, or the name
 * is unknown) the other person is 'The driver' or 'The requester'.
 */
function bookingEventText(event: BookingActivity): string {
  const title = `"${event.title}"`;
  const driver = event.my_role === 'driver';
  if (event.mine) {
    switch (event.event) {
      case 'offered':
        return `You offered to deliver ${title}`;
      case 'chosen':
        return `You chose a driver for ${title}`;
      case 'declined':
        return `You declined an offer on ${title}`;
      case 'withdrawn':
        return `You withdrew your offer on ${title}`;
      case 'cancelled':
        return driver ? `You cancelled your delivery of ${title}` : `You cancelled the booking for ${title}`;
      case 'picked_up':
        return `You picked up ${title}`;
      case 'completed':
        return `You delivered ${title}`;
      case 'received':
        return `You marked ${title} as received`;
      case 'other_chosen':
        return `Other offers on ${title} were declined`;
      case 'request_withdrawn':
        return `You withdrew the request ${title}`;
      case 'resolved':
        return `RuralRoute decided on the problem with ${title}`;
    }
  }
  const other = event.actor_name ?? (driver ? 'The requester' : 'The driver');
  switch (event.event) {
    case 'offered':
      return `${other} offered to deliver ${title}`;
    case 'chosen':
      return driver ? `${other} chose you to deliver ${title}` : `A driver was chosen for ${title}`;
    case 'declined':
      return driver ? `${other} declined your offer on ${title}` : `An offer on ${title} was declined`;
    case 'withdrawn':
      return `${other} withdrew their offer on ${title}`;
    case 'cancelled':
      return driver ? `${other} cancelled the booking for ${title}` : `${other} cancelled the delivery of ${title}`;
    case 'picked_up':
      return `${other} picked up ${title}`;
    case 'completed':
      return `${other} delivered ${title}`;
    case 'received':
      return `${other} marked ${title} as received`;
    case 'other_chosen':
      return driver ? `Another driver was chosen for ${title}` : `Other offers on ${title} were declined`;
    case 'request_withdrawn':
      return `${other} withdrew the request ${title}`;
    case 'resolved':
      return `RuralRoute decided on the problem with ${title}`;
  }
}

/** Recent Activity's sentence for one event (docs/marketplace-api.md, Dashboard). */
export function activityText(event: Activity): string {
  switch (event.type) {
    case 'ride_posted':
      return `You posted a ride from ${event.origin} to ${event.destination}`;
    case 'request_created':
      return `You created the request "${event.title}"`;
    case 'request_accepted':
      return `${event.driver_name} accepted your request "${event.title}"`;
    case 'booking_made':
      return `You accepted "${event.title}" for ${event.requester_name}`;
    case 'booking_event':
      return bookingEventText(event);
  }
}
