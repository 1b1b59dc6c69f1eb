import { describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/notifications';
import type { SavedSearch } from '../../shared/places';
import { setupTwoInstances } from '../test/harness';
import { requestBody } from '../test/marketplace';
import { dataOf, servedInstances } from '../test/sse';

const realPostgres = Boolean(process.env.DATABASE_URL);

/** A request posted through one instance alerts a saved search's owner listening on the other. */
describe.skipIf(!realPostgres)('alerts across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const { connect } = servedInstances(ctx);

  it("a request posted on A reaches the alert owner's stream on B as notification.created", async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const saved = await b<SavedSearch>('POST', '/saved-searches', {
      cookie: ana.token,
      body: { name: 'Honey', kind: 'requests', filters: { q: 'honey' } },
    });
    expect(saved.status).toBe(201);
    const onB = await connect(1, ana.token);
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
