import type { Activity } from '../../../../shared/marketplace';

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
  }
}
