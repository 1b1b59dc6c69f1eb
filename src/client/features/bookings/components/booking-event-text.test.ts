import { describe, expect, it } from 'vitest';
import type { BookingEvent, BookingEventType } from '@shared/lifecycle';
import { bookingEventText, reasonText } from './booking-event-text';

const ana = { id: '00000000-0000-4000-8000-000000000001', full_name: 'Ana Diaz', role: 'requester' as const };
const sam = { id: '00000000-0000-4000-8000-000000000002', full_name: 'Sam Lee', role: 'driver' as const };

const event = (type: BookingEventType, actor: BookingEvent['actor']): BookingEvent => ({
  id: 'e',
  type,
  at: '2026-05-01T10:00:00.000Z',
  actor,
  reason: null,
  details: null,
});

describe('timeline text', () => {
  it.each<[BookingEventType, BookingEvent['actor'], string]>([
    ['offered', sam, 'Offered by Sam Lee'],
    ['chosen', ana, 'Driver chosen by Ana Diaz'],
    ['declined', ana, 'Offer declined by Ana Diaz'],
    ['withdrawn', sam, 'Offer withdrawn by Sam Lee'],
    ['cancelled', ana, 'Cancelled by Ana Diaz'],
    ['picked_up', sam, 'Picked up'],
    ['completed', sam, 'Delivered by Sam Lee with the delivery code'],
    ['received', ana, 'Marked as received by Ana Diaz'],
    ['other_chosen', null, 'Declined: another driver was chosen'],
    ['request_withdrawn', ana, 'Request withdrawn by Ana Diaz'],
    ['request_withdrawn', null, 'Request withdrawn'],
  ])('%s reads %s', (type, actor, text) => {
    expect(bookingEventText(event(type, actor))).toBe(text);
  });

  it('names a cancel reason by its label, and nothing when there is none', () => {
    expect(reasonText('too_late')).toBe("Reason: Can't make it in time");
    expect(reasonText(null)).toBeNull();
  });
});
