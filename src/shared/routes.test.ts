import { describe, expect, it } from 'vitest';
import { bookingDetailPath, isKnownClientPath, PAGE_PATHS, profilePath, requestDetailPath } from './routes';

const ID = '0b6f7e4c-2f7a-4d1e-9c51-3f1a2b3c4d5e';

describe('isKnownClientPath', () => {
  it.each(['/', '/pricing', '/dashboard', '/dashboard/bookings', '/dashboard/requests/', '/dashboard/admin/disputes'])(
    'knows %s',
    (path) => {
      expect(isKnownClientPath(path)).toBe(true);
    },
  );

  it.each([requestDetailPath(ID), bookingDetailPath(ID), profilePath(ID), `${bookingDetailPath(ID.toUpperCase())}/`])(
    'knows the detail page %s',
    (path) => {
      expect(isKnownClientPath(path)).toBe(true);
    },
  );

  it.each([
    '/dashboard/nope',
    PAGE_PATHS.requestDetail,
    PAGE_PATHS.bookingDetail,
    PAGE_PATHS.profile,
    '/dashboard/users/not-a-uuid',
    '/dashboard/bookings/not-a-uuid',
    `/dashboard/bookings/${ID}/extra`,
    `/dashboard/rides/${ID}`,
    `/x/dashboard/requests/${ID}`,
  ])('does not know %s', (path) => {
    expect(isKnownClientPath(path)).toBe(false);
  });

  it('builds detail links from an id', () => {
    expect(requestDetailPath(ID)).toBe(`/dashboard/requests/${ID}`);
    expect(bookingDetailPath(ID)).toBe(`/dashboard/bookings/${ID}`);
    expect(profilePath(ID)).toBe(`/dashboard/users/${ID}`);
  });
});
