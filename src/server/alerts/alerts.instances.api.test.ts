import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/notifications';
import type { SavedSearch } from '../../shared/places';
import type { Database } from '../db/client';
import { EVENTS_CHANNEL } from '../events';
import { setupTwoInstances } from '../test/harness';
import { requestBody } from '../test/marketplace';
import { dataOf, serveApp, SseClient } from '../test/sse';

const realPostgres = Boolean(process.env.DATABASE_URL);

async function until(what: string, ok: () => boolean, withinMs = 5_000) {
  const deadline = Date.now() + withinMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A request posted through one instance alerts a saved search's owner listening on the other. */
describe.skipIf(!realPostgres)('alerts across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const servers: { url: string; close(): Promise<void> }[] = [];
  const clients: SseClient[] = [];
  const listening = (d: Database) => d.notifications.isListening(EVENTS_CHANNEL);

  beforeAll(async () => {
    servers.push(await serveApp(ctx.apps[0]), await serveApp(ctx.apps[1]));
    await until('both LISTEN connections', () => ctx.databases.every(listening));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  it("a request posted on A reaches the alert owner's stream on B as notification.created", async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const saved = await b<SavedSearch>('POST', '/saved-searches', {
      cookie: ana.token,
      body: { name: 'Honey', kind: 'requests', filters: { q: 'honey' } },
    });
    expect(saved.status).toBe(201);
    const onB = await SseClient.open(servers[1]!.url, { cookie: ana.token });
    clients.push(onB);
    await onB.take(1); // ready

    const posted = await a('POST', '/requests', { cookie: ben.token, body: requestBody({ title: 'Honey jars' }) });
    expect(posted.status).toBe(201);
    const got = await onB.takeUntil((e) => e.event === 'notification.created');
    expect(dataOf<{ notification: Notification }>(got.at(-1)!).notification).toMatchObject({
      type: 'search_match',
      text: 'A new request matches your search “Honey”.',
      link: '/dashboard/browse-requests?q=honey',
      read_at: null,
    });
  });
});
