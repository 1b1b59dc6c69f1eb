import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from '@/lib/router';

const STORAGE_KEY = 'rr-scroll-positions';

/** A navigation that changes only what the page shows in place (a tab) says so in its state: the page stays put. */
export const KEEP_SCROLL = { keepScroll: true } as const;

/**
 * A history entry's key, with its address: a page opened afresh (typed, a link from outside) has no key of its own
 * yet ('default'), so the address keeps one such page's place from being given to another.
 */
const entryOf = (location: { key: string; pathname: string; search: string }) =>
  `${location.key} ${location.pathname}${location.search}`;

function readPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Where each page of this tab's history was scrolled to, as a browser does between whole pages: a new page opens at
 * its top (or at its #anchor), Back and Forward return to where it was left, and a reload keeps the place. The first
 * render changes nothing unless it is a reload: a prerendered page the person has already scrolled while its script
 * loaded stays under their finger (issue 34).
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const current = useRef(entryOf(location));
  const first = useRef(true);

  useEffect(() => {
    positions.current ??= readPositions();
    window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      positions.current![current.current] = window.scrollY;
    };
    // Kept for a reload or Back from another site.
    const onHide = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Storage full or refused: positions are a comfort, not data.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onHide);
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= readPositions();
    current.current = entryOf(location);
    const saved = positions.current[current.current];
    if (first.current) {
      first.current = false;
      if (saved !== undefined) window.scrollTo(0, saved);
      return;
    }
    if (navigationType === 'POP') return window.scrollTo(0, saved ?? 0);
    if ((location.state as Partial<typeof KEEP_SCROLL> | null)?.keepScroll) return;
    const anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (anchor) anchor.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location, navigationType]);

  return null;
}
