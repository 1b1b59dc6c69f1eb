import { describe, expect, it } from 'vitest';
import { bookingEventTypeSchema, type BookingEventType, type BookingRole } from '@shared/lifecycle';
import type { Activity } from '@shared/marketplace';
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

const lifecycle = (
  event: BookingEventType,
  mine: boolean,
  my_role: BookingRole,
  actor_name: string | null,
): Activity => ({
  ...base,
  type: 'booking_event',
  event,
  booking_id: '00000000-0000-4000-8000-000000000001',
  title: 'Feed sacks',
  actor_name,
  mine,
  my_role,
});

describe('lifecycle activity text', () => {
  // What each person sees of each step of the story: the one who acted, and the other one.
  it.each<[BookingEventType, boolean, BookingRole, string | null, string]>([
    ['offered', true, 'driver', 'Sam Lee', 'You offered to deliver "Feed sacks"'],
    ['offered', false, 'requester', 'Sam Lee', 'Sam Lee offered to deliver "Feed sacks"'],
    ['chosen', true, 'requester', 'Ana Diaz', 'You chose a driver for "Feed sacks"'],
    ['chosen', false, 'driver', 'Ana Diaz', 'Ana Diaz chose you to deliver "Feed sacks"'],
    ['declined', true, 'requester', 'Ana Diaz', 'You declined an offer on "Feed sacks"'],
    ['declined', false, 'driver', 'Ana Diaz', 'Ana Diaz declined your offer on "Feed sacks"'],
    ['withdrawn', true, 'driver', 'Sam Lee', 'You withdrew your offer on "Feed sacks"'],
    ['withdrawn', false, 'requester', 'Sam Lee', 'Sam Lee withdrew their offer on "Feed sacks"'],
    ['cancelled', true, 'driver', 'Sam Lee', 'You cancelled your delivery of "Feed sacks"'],
    ['cancelled', false, 'requester', 'Sam Lee', 'Sam Lee cancelled the delivery of "Feed sacks"'],
    ['cancelled', true, 'requester', 'Ana Diaz', 'You cancelled the booking for "Feed sacks"'],
    ['cancelled', false, 'driver', 'Ana Diaz', 'Ana Diaz cancelled the booking for "Feed sacks"'],
    ['picked_up', true, 'driver', 'Sam Lee', 'You picked up "Feed sacks"'],
    ['picked_up', false, 'requester', 'Sam Lee', 'Sam Lee picked up "Feed sacks"'],
    ['completed', true, 'driver', 'Sam Lee', 'You delivered "Feed sacks"'],
    ['completed', false, 'requester', 'Sam Lee', 'Sam Lee delivered "Feed sacks"'],
    ['received', true, 'requester', 'Ana Diaz', 'You marked "Feed sacks" as received'],
    ['received', false, 'driver', 'Ana Diaz', 'Ana Diaz marked "Feed sacks" as received'],
    ['other_chosen', false, 'driver', null, 'Another driver was chosen for "Feed sacks"'],
    ['other_chosen', false, 'requester', null, 'Other offers on "Feed sacks" were declined'],
    ['request_withdrawn', true, 'requester', 'Ana Diaz', 'You withdrew the request "Feed sacks"'],
    ['request_withdrawn', false, 'driver', 'Ana Diaz', 'Ana Diaz withdrew the request "Feed sacks"'],
    // No name: the other person by role.
    ['request_withdrawn', false, 'driver', null, 'The requester withdrew the request "Feed sacks"'],
    ['picked_up', false, 'requester', null, 'The driver picked up "Feed sacks"'],
    // Combinations the server should not send still read as sentences about the right people.
    ['chosen', false, 'requester', 'Ana Diaz', 'A driver was chosen for "Feed sacks"'],
    ['declined', false, 'requester', 'Ana Diaz', 'An offer on "Feed sacks" was declined'],
  ])('%s (mine: %s, as %s, actor %s) reads %s', (event, mine, role, actor, text) => {
    expect(activityText(lifecycle(event, mine, role, actor))).toBe(text);
  });

  it('words every event, mine or not, in both roles, as a sentence naming the request', () => {
    for (const event of bookingEventTypeSchema.options)
      for (const mine of [true, false])
        for (const role of ['driver', 'requester'] as const)
          for (const actor of ['Ana Diaz', null]) {
            const text = activityText(lifecycle(event, mine, role, actor));
            expect(text).toContain('"Feed sacks"');
            expect(text).not.toMatch(/undefined|null/);
            expect(text[0]).toBe(text[0]?.toUpperCase());
          }
  });
});
