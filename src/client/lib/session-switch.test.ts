import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN_AS_HEADER, SIGNED_OUT, type SessionInfo } from '@shared/auth';
import { createQueryClient } from '@/app/providers';
import { sessionQueryOptions } from '@/features/auth/api/session';
import { ADA, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { stubApi } from '@/test/render';
import { api } from './api-client';
import { persistQueryCache, type Snapshot, type SnapshotStore } from '../offline/query-persistence';
import { queryKeys } from './query-keys';
import { followSessionSwitches } from './session-switch';

/**
 * The person signed in on this browser changes under an open page (another tab, a cookie that
 * changed). Nothing of the previous person may stay on screen or in memory.
 */

const ADAS_DASHBOARD = { stats: { active_rides: 3 }, activity: [{ id: 'a1', text: 'Ada posted a ride' }] };
const SAMS_DASHBOARD = { stats: { active_rides: 0 }, activity: [] };

class NoDevice implements SnapshotStore {
  async read(): Promise<Snapshot | undefined> {
    return undefined;
  }
  async write() {}
  async clear() {}
}

let client: QueryClient;
let stops: (() => void)[] = [];
/** Who the server says is signed in (the browser's cookie), and what it answers as them. */
let cookie: typeof ADA | null;

beforeEach(async () => {
  cookie = ADA;
  const as = () => ({ [SIGNED_IN_AS_HEADER]: cookie?.id ?? SIGNED_OUT });
  stubApi({
    'GET /auth/session': () => ({ body: cookie ? sessionOf(cookie) : { user: null, session: null }, headers: as() }),
    'GET /dashboard': () => ({ body: cookie === ADA ? ADAS_DASHBOARD : SAMS_DASHBOARD, headers: as() }),
    'GET /notifications/unread': () => ({ body: { count: 0 }, headers: as() }),
  });
  client = createQueryClient();
  const persistence = persistQueryCache(client, new NoDevice());
  await persistence.restored;
  stops = [persistence.stop, followSessionSwitches(client)];
});
afterEach(() => {
  stops.forEach((stop) => stop());
  vi.unstubAllGlobals();
});

/** A page on screen: an observer of the session and of the dashboard, as the dashboard's components hold them. */
async function dashboardOnScreen() {
  const session = new QueryObserver(client, sessionQueryOptions);
  const dashboard = new QueryObserver(client, {
    queryKey: queryKeys.dashboard,
    queryFn: () => api<unknown>('/dashboard'),
    staleTime: 60_000,
  });
  stops.push(
    session.subscribe(() => {}),
    dashboard.subscribe(() => {}),
  );
  await vi.waitFor(() => expect(dashboard.getCurrentResult().data).toEqual(ADAS_DASHBOARD));
  expect(client.getQueryData<SessionInfo>(queryKeys.session)?.user?.id).toBe(ADA.id);
  return dashboard;
}

describe('another person signed in under an open page', () => {
  it('an answer from another session looks the session up again, and the screen shows the new person only', async () => {
    const dashboard = await dashboardOnScreen();
    cookie = SAM;
    // Any request at all (here the unread count) comes back from Sam's session.
    await api('/notifications/unread');
    await vi.waitFor(() => expect(client.getQueryData<SessionInfo>(queryKeys.session)?.user?.id).toBe(SAM.id));
    await vi.waitFor(() => expect(dashboard.getCurrentResult().data).toEqual(SAMS_DASHBOARD));
    expect(
      JSON.stringify(
        client
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ),
    ).not.toContain('Ada posted');
  });

  it('an answer from no session keeps the page (what was typed stays) and the next look-up finds it ended', async () => {
    const dashboard = await dashboardOnScreen();
    const fetches = vi.mocked(fetch).mock.calls.length;
    cookie = null;
    await api('/notifications/unread');
    // Nothing is fetched behind the person's back: the page they are on (a form half typed) stays.
    expect(vi.mocked(fetch).mock.calls.length).toBe(fetches + 1);
    expect(dashboard.getCurrentResult().data).toEqual(ADAS_DASHBOARD);
    // The next page they open looks the session up again, finds nobody, and nothing of Ada stays.
    expect(client.getQueryState(queryKeys.session)?.isInvalidated).toBe(true);
    await client.refetchQueries({ queryKey: queryKeys.session, type: 'all', stale: true });
    await vi.waitFor(() => expect(client.getQueryData<SessionInfo>(queryKeys.session)?.user).toBeNull());
    await vi.waitFor(() => expect(dashboard.getCurrentResult().data).not.toEqual(ADAS_DASHBOARD));
  });

  it('signed out in another tab: the session is looked up again and nothing of the person stays', async () => {
    const dashboard = await dashboardOnScreen();
    cookie = null;
    const otherTab = new BroadcastChannel('ruralroute-session');
    stops.push(() => otherTab.close());
    otherTab.postMessage(null);
    await vi.waitFor(() => expect(client.getQueryData<SessionInfo>(queryKeys.session)?.user).toBeNull());
    await vi.waitFor(() => expect(dashboard.getCurrentResult().data).not.toEqual(ADAS_DASHBOARD));
  });

  it('a tab that says someone signed in is believed over a look-up from before it: the session is looked up again', async () => {
    const dashboard = await dashboardOnScreen();
    // The server answers each look-up as the cookie was when it was asked; the first one is slow.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let lookUps = 0;
    stubApi({
      'GET /auth/session': async () => {
        const asked = cookie;
        if (++lookUps === 1) await held;
        return {
          body: asked ? sessionOf(asked) : { user: null, session: null },
          headers: { [SIGNED_IN_AS_HEADER]: asked?.id ?? SIGNED_OUT },
        };
      },
      'GET /dashboard': () => ({
        body: cookie === ADA ? ADAS_DASHBOARD : SAMS_DASHBOARD,
        headers: { [SIGNED_IN_AS_HEADER]: cookie?.id ?? SIGNED_OUT },
      }),
    });
    const otherTab = new BroadcastChannel('ruralroute-session');
    stops.push(() => otherTab.close());
    // Ada was signed out elsewhere; another tab opens a page and says nobody is signed in.
    cookie = null;
    otherTab.postMessage(null);
    await vi.waitFor(() => expect(lookUps).toBe(1));
    // Sam signs in in that tab while this tab's look-up, asked before, is still on its way.
    cookie = SAM;
    otherTab.postMessage(SAM.id);
    await vi.waitFor(() => expect(lookUps).toBe(2));
    release();
    await vi.waitFor(() => expect(client.getQueryData<SessionInfo>(queryKeys.session)?.user?.id).toBe(SAM.id));
    await vi.waitFor(() => expect(dashboard.getCurrentResult().data).toEqual(SAMS_DASHBOARD));
  });

  it('answers from the same person change nothing', async () => {
    const dashboard = await dashboardOnScreen();
    const fetches = vi.mocked(fetch).mock.calls.length;
    await api('/notifications/unread');
    await api('/notifications/unread');
    expect(vi.mocked(fetch).mock.calls.length).toBe(fetches + 2);
    expect(dashboard.getCurrentResult().data).toEqual(ADAS_DASHBOARD);
  });
});
