import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  bookingDetailPath,
  DASHBOARD_PATHS,
  DETAIL_PATHS,
  PAGE_PATHS,
  PUBLIC_PATHS,
  requestDetailPath,
} from '@shared/routes';
import { routes } from './router';

/** The route a path lands on: the deepest match's path, or 'index' for an index route. */
function landing(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  const last = matches[matches.length - 1]?.route;
  return last?.index ? 'index' : last?.path;
}

describe('router', () => {
  it.each(Object.entries(PAGE_PATHS))('routes %s (%s) to its own page, not the 404 page', (_name, path) => {
    const route = landing(path);
    expect(route).toBeDefined();
    expect(route).not.toBe('*');
  });

  it('routes a request or booking id to its page', () => {
    const id = '0b6f7e4c-2f7a-4d1e-9c51-3f1a2b3c4d5e';
    expect(landing(requestDetailPath(id))).toBe(PAGE_PATHS.requestDetail);
    expect(landing(bookingDetailPath(id))).toBe(PAGE_PATHS.bookingDetail);
  });

  it('sends any other path to the 404 page', () => {
    expect(landing('/dashboard/nope')).toBe('*');
    expect(landing('/pricing/extra')).toBe('*');
  });

  it('the server knows exactly the pages of the table', () => {
    expect(new Set([...PUBLIC_PATHS, ...DASHBOARD_PATHS, ...DETAIL_PATHS])).toEqual(new Set(Object.values(PAGE_PATHS)));
  });
});
