import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { api } from '@/lib/api-client';
import { formatInstant } from '@/lib/format';
import { queryKeys } from '@/lib/query-keys';
import { ADA } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { OfflineBanner } from './offline-banner';

afterEach(() => {
  act(() => onlineManager.setOnline(true));
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const SESSION_AT = new Date('2026-05-01T08:00:00.000Z');
const RIDES_AT = new Date('2026-05-01T09:30:00.000Z');

/** A dashboard page showing one list, as My Rides does. */
function RidesList() {
  const rides = useQuery({
    queryKey: queryKeys.myRides,
    queryFn: () => api<{ items: { id: string; origin: string }[] }>('/rides/mine'),
  });
  return (
    <ul>
      {rides.data?.items.map((r) => (
        <li key={r.id}>{r.origin}</li>
      ))}
    </ul>
  );
}

function renderDashboard() {
  return renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
        <Route path={PAGE_PATHS.myRides} element={<RidesList />} />
      </Route>
    </Routes>,
    { route: PAGE_PATHS.myRides },
  );
}

describe('Offline banner', () => {
  it('offline, says when the newest data shown was loaded; back online it goes and the list reloads by itself', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(SESSION_AT);
    let origin = 'Oakville';
    const calls = stubApi({
      'GET /auth/session': () => ({ body: sessionOf(ADA) }),
      // The list is loaded later than the session: its time is the one shown.
      'GET /rides/mine': () => {
        vi.setSystemTime(RIDES_AT);
        return { body: { items: [{ id: 'r1', origin }], next_cursor: null } };
      },
      'GET /notifications/unread': () => ({ body: { count: 0 } }),
    });
    renderDashboard();
    expect(await screen.findByText('Oakville')).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();

    act(() => onlineManager.setOnline(false));
    const banner = screen.getByRole('status');
    expect(banner).toHaveAttribute('aria-live', 'polite');
    expect(banner).toHaveTextContent(
      `You're offline. Showing what you last saw at ${formatInstant(RIDES_AT.toISOString())}.`,
    );

    origin = 'Millbrook';
    const loads = calls.filter((c) => c.path === '/rides/mine').length;
    act(() => onlineManager.setOnline(true));
    expect(screen.queryByRole('status')).toBeNull();
    expect(await screen.findByText('Millbrook')).toBeVisible();
    expect(calls.filter((c) => c.path === '/rides/mine').length).toBe(loads + 1);
  });

  it('with nothing loaded yet, says only that the device is offline', () => {
    act(() => onlineManager.setOnline(false));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <OfflineBanner />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/^You're offline\.$/);
  });

  it('opened offline with no session known, the dashboard waits for the signal and says why', async () => {
    const calls = stubApi({ 'GET /auth/session': () => ({ body: sessionOf(ADA) }) });
    act(() => onlineManager.setOnline(false));
    renderDashboard();
    expect(screen.getByText("You're offline.")).toBeVisible();
    expect(screen.getByText('Loading...')).toBeVisible();
    expect(calls).toHaveLength(0);
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/auth/session'));
    expect(screen.queryByText("You're offline.")).toBeNull();
  });
});
