import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { deleteAccountSchema, EXPORT_SECTIONS } from '../../shared/account';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { RECENT_CHECK_MINUTES } from '../../shared/two-factor';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { clearSessionCookie, requireAuth } from '../http/session';
import { sensitive } from '../http/sensitive';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { AccountDeletion } from './deletion';
import type { DataExport } from './export';
import type { IdentityChecks } from './identity';
import { callerOf } from './routes';

const tags = ['account'];

const exportRoute = createRoute({
  method: 'get',
  path: '/export',
  tags,
  responses: {
    200: {
      description:
        `'Download my data': a JSON file (Content-Disposition attachment, ruralroute-data-YYYY-MM-DD.json) with ` +
        `\`exported_at\` and the sections ${EXPORT_SECTIONS.join(', ')}. Needs a password check within the last ` +
        `${RECENT_CHECK_MINUTES} minutes (403 reauth_required otherwise; POST /account/confirm-identity)`,
      content: { 'application/json': { schema: z.object({ exported_at: z.string() }).passthrough() } },
    },
    ...errorResponses(401, 403, 429),
  },
});

const deleteRoute = createRoute({
  method: 'post',
  path: '/delete',
  tags,
  request: { body: jsonBody(objectBody(deleteAccountSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    204: {
      description:
        "The account is deleted (see src/shared/account.ts deleteAccountSchema) and this browser's session cookie " +
        'cleared; every session of the account ended on every instance',
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

/** `/account/export` and `/account/delete` ('Your data', 'Delete account'). */
export function dataRoutes(
  exporter: DataExport,
  deletion: AccountDeletion,
  identity: IdentityChecks,
  throttle: MiddlewareHandler<AppEnv>,
) {
  const router = createRouter();

  // Throttled like a write: each export reads every row of the account.
  router.openapi({ ...exportRoute, middleware: [requireAuth, sensitive, throttle] }, async (c) => {
    const caller = callerOf(c);
    await identity.requireRecent(caller);
    const { fileName, body } = await exporter.exportFor(caller);
    c.header('Content-Type', 'application/json; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${fileName}"`);
    c.header('Cache-Control', 'no-store');
    // JSON text joined from the database's sections (export.ts), sent as it is rather than parsed and re-encoded
    // by c.json; the route's typing only knows c.json for a JSON response.
    return c.body(body, 200) as never;
  });

  router.openapi({ ...deleteRoute, middleware: [requireAuth, sensitive, throttle] }, async (c) => {
    const { password, code } = c.req.valid('json');
    await deletion.deleteAccount(callerOf(c), { password, code });
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  return router;
}
