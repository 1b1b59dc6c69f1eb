import '@testing-library/jest-dom/vitest';
import { onlineManager } from '@tanstack/react-query';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
// Components render with tailwind-merge, as every page but the conflict-free ones does (src/client/app/lazy-page.tsx).
import '@/lib/class-merger';

// findBy* and waitFor wait for what they look for, up to this long: Testing Library's default second is shorter than a
// busy CI machine's slowest render (ask-to-carry-button.test passed only on its retry in CI). A test that passes
// does not wait any longer for it.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  // A test whose requests met no connection leaves the app offline (offline/connectivity.ts); the next starts online.
  onlineManager.setOnline(true);
});

// Files share their worker's modules and document (vitest.config.ts): what one file changed is put back before the
// next, so no file depends on the order it runs in.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  document.head.querySelectorAll('meta[name], link[rel="canonical"]').forEach((el) => el.remove());
  document.title = '';
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

// jsdom lacks these browser APIs; radix measures elements and the sidebar watches the viewport width.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addEventListener() {},
  removeEventListener() {},
  addListener() {},
  removeListener() {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;
