import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { createNavigations } from './navigations';
import { announceUpdate, applyUpdatesOnNavigation, UPDATED_FLAG } from './service-worker';

/** The browser's service worker objects (not in jsdom): a registration with its waiting worker, and the container. */
function browser({ waiting = false, controlled = true } = {}) {
  const messages: unknown[] = [];
  const container = Object.assign(new EventTarget(), { controller: controlled ? {} : null });
  const registration = {
    waiting: waiting ? { postMessage: (m: unknown) => messages.push(m) } : null,
    update: vi.fn(async () => undefined),
  };
  return {
    messages,
    container,
    registration,
    takeOver: () => container.dispatchEvent(new Event('controllerchange')),
    follow: (router: AppRouter, load: (href: string) => void, now = Date.now) =>
      applyUpdatesOnNavigation(
        registration as unknown as ServiceWorkerRegistration,
        container as unknown as ServiceWorkerContainer,
        router,
        load,
        now,
      ),
  };
}

/** The app's navigations, from /dashboard: `navigate` publishes a location as RootLayout does once it renders one. */
function appRouter() {
  const navigations = createNavigations();
  let n = 0;
  const navigate = async (to: string) => {
    const url = new URL(to, 'http://localhost');
    n += 1;
    navigations.publish({ pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: `k${n}` });
  };
  void navigate('/dashboard');
  return Object.assign(navigations, { navigate });
}
type AppRouter = ReturnType<typeof appRouter>;

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.useRealTimers());

describe('a new version of the app', () => {
  it('is applied at the next in-app navigation: the waiting worker takes over and the page loads at that URL', async () => {
    const sw = browser({ waiting: true });
    const router = appRouter();
    const load = vi.fn();
    sw.follow(router, load);
    await router.navigate('/dashboard/rides?page=2#top');
    expect(sw.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(load).not.toHaveBeenCalled();
    sw.takeOver();
    expect(load).toHaveBeenCalledExactlyOnceWith('/dashboard/rides?page=2#top');
    expect(sessionStorage.getItem(UPDATED_FLAG)).not.toBeNull();
    // Further navigations while the page reloads do not start another update.
    await router.navigate('/dashboard/bookings');
    expect(sw.messages).toHaveLength(1);
  });

  it('loads the page anyway if the new worker never reports taking over', async () => {
    vi.useFakeTimers();
    const sw = browser({ waiting: true });
    const router = appRouter();
    const load = vi.fn();
    sw.follow(router, load);
    await router.navigate('/dashboard/requests');
    vi.advanceTimersByTime(3000);
    expect(load).toHaveBeenCalledExactlyOnceWith('/dashboard/requests');
  });

  it('another tab applied it: this page, running the old version, loads anew at its next navigation', async () => {
    const sw = browser();
    const router = appRouter();
    const load = vi.fn();
    sw.follow(router, load);
    await router.navigate('/dashboard/rides');
    expect(load).not.toHaveBeenCalled();
    sw.takeOver();
    await router.navigate('/dashboard/bookings');
    expect(load).toHaveBeenCalledExactlyOnceWith('/dashboard/bookings');
  });

  it('with none waiting, navigations stay in the page and ask the server for a new worker at most every 10 minutes', async () => {
    const sw = browser();
    const router = appRouter();
    const load = vi.fn();
    let now = 0;
    sw.follow(router, load, () => now);
    await router.navigate('/dashboard/rides');
    expect(sw.registration.update).not.toHaveBeenCalled();
    now = 10 * 60 * 1000;
    await router.navigate('/dashboard/requests');
    await router.navigate('/dashboard/bookings');
    expect(sw.registration.update).toHaveBeenCalledTimes(1);
    expect(load).not.toHaveBeenCalled();
  });

  it("is announced once after the reload: 'RuralRoute was updated.'", async () => {
    toast.dismiss();
    render(<Toaster />);
    sessionStorage.setItem(UPDATED_FLAG, '1');
    await act(() => announceUpdate());
    expect(await screen.findByText('RuralRoute was updated.')).toBeVisible();
    expect(sessionStorage.getItem(UPDATED_FLAG)).toBeNull();
    await act(() => announceUpdate());
    expect(screen.getAllByText('RuralRoute was updated.')).toHaveLength(1);
  });
});
