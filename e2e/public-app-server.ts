import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '../src/server/app';
import type { Db } from '../src/server/db/client';
import { readEnv } from '../src/server/env';
import { createTestDatabase } from '../src/server/test/database';

export interface AppServer {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/**
 * The real app (same createApp and built client as `npm start`) served from this test process on a free port,
 * over a database this process holds open: a fresh in-memory PGlite, or a throwaway database on the server in
 * DATABASE_URL. The test can then read back what the browser stored. (The shared e2e server's PGlite directory
 * cannot be opened by a second process while it runs.)
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const database = await createTestDatabase();
  const app = createApp({
    db: database.db,
    env: readEnv({ NODE_ENV: 'production', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ...env }),
    clientDir: resolve('dist/client'),
    notifications: database.notifications,
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db: database.db,
    async close() {
      // The app first: its live streams, timers and job worker stop before the database they use closes.
      await app.close();
      await new Promise<void>((ok) => server.close(() => ok()));
      await database.close();
    },
  };
}
