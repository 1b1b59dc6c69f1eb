import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../../shared/marketplace';
import { activityText } from './activity-text';

const base = { id: 'x', at: '2026-05-01T10:00:00.000Z' };

describe('activity text', () => {
  it.each<[Activity, string]>([
    [
      { ...base, type: 'ride_posted', origin: 'Oakville', destination: 'Millbrook' },
      'You posted a ride from Oakville to Millbrook',
    ],
    [{ ...base, type: 'request_created', title: 'Feed' }, 'You created the request "Feed"'],
    [
      { ...base, type: 'request_accepted', title: 'Feed', driver_name: 'Sam Lee' },
      'Sam Lee accepted your request "Feed"',
    ],
    [
      { ...base, type: 'booking_made', title: 'Hay bales', requester_name: 'Cat Hill' },
      'You accepted "Hay bales" for Cat Hill',
    ],
  ])('words %o as %s', (event, text) => {
    expect(activityText(event)).toBe(text);
  });
});
