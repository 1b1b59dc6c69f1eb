import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  notificationSchema,
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  notificationUnreadSchema,
  UNSUBSCRIBE_INVALID_MESSAGE,
  unsubscribeResultSchema,
} from '../../shared/notifications';
import { DomainError } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { NOTIFICATION_NOT_FOUND, type NotificationService } from './service';
import { RESUBSCRIBE_API_PATH, UNSUBSCRIBE_API_PATH } from './unsubscribe';

/**
 * The two routes an e-mail's unsubscribe link reaches, as the app serves them. They need no session and no Origin:
 * app.ts exempts exactly these from the Origin check (see there).
 */
export const TOKEN_PATHS: readonly string[] = [UNSUBSCRIBE_API_PATH, RESUBSCRIBE_API_PATH];

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['notifications'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'My notifications, newest first',
      content: { 'application/json': { schema: pageSchema(notificationSchema) } },
    },
    ...errorResponses(400, 401),
  },
});

const unreadRoute = createRoute({
  method: 'get',
  path: '/unread',
  tags: ['notifications'],
  responses: {
    200: {
      description: 'How many of my notifications are unread (the bell)',
      content: { 'application/json': { schema: notificationUnreadSchema } },
    },
    ...errorResponses(401),
  },
});

/** No input: JSON `{}` or no body at all. */
const emptyBody = {
  required: false,
  content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
} as const;

const readRoute = createRoute({
  method: 'post',
  path: '/{id}/read',
  tags: ['notifications'],
  request: { params: idParamSchema, body: emptyBody },
  responses: {
    200: {
      description: 'The notification, read (a second call changes nothing)',
      content: { 'application/json': { schema: notificationSchema } },
    },
    ...errorResponses(400, 401, 404, 429),
  },
});

const readAllRoute = createRoute({
  method: 'post',
  path: '/read-all',
  tags: ['notifications'],
  request: { body: emptyBody },
  responses: {
    200: {
      description: 'How many unread notifications were marked read',
      content: { 'application/json': { schema: notificationUnreadSchema } },
    },
    ...errorResponses(400, 401, 429),
  },
});

const settingsRoute = createRoute({
  method: 'get',
  path: '/settings',
  tags: ['notifications'],
  responses: {
    200: {
      description: 'Where my e-mails go, and which optional types are e-mailed (security e-mails always are)',
      content: { 'application/json': { schema: notificationSettingsSchema } },
    },
    ...errorResponses(401),
  },
});

const patchSettingsRoute = createRoute({
  method: 'patch',
  path: '/settings',
  tags: ['notifications'],
  request: { body: jsonBody(objectBody(notificationSettingsPatchSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description: 'The settings after the change',
      content: { 'application/json': { schema: notificationSettingsSchema } },
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

/**
 * The token comes in the JSON body (the /unsubscribe page), or in the query string with a form body
 * `List-Unsubscribe=One-Click` (RFC 8058: a mail program's one-click button POSTs to the List-Unsubscribe URL).
 */
const tokenRequest = {
  query: z.object({ token: z.string().max(500).optional() }),
  body: {
    required: false,
    content: {
      'application/json': { schema: z.object({ token: z.string().max(500).optional() }) },
      'application/x-www-form-urlencoded': { schema: z.object({ 'List-Unsubscribe': z.string().optional() }) },
    },
  },
} as const;

const tokenRoute = (path: string, description: string) =>
  createRoute({
    method: 'post',
    path,
    tags: ['notifications'],
    request: tokenRequest,
    responses: {
      200: { description, content: { 'application/json': { schema: unsubscribeResultSchema } } },
      ...errorResponses(400, 415),
    },
  });

const unsubscribeRoute = tokenRoute('/unsubscribe', 'The e-mail type the signed link names is switched off');
const resubscribeRoute = tokenRoute('/resubscribe', 'The e-mail type the signed link names is switched on again');

/** Any refusal of a token request (no token, a number, a body that is not an object) is the link's one message. */
const invalidLink = (result: { success: boolean }): undefined => {
  if (!result.success) throw new DomainError('validation_error', UNSUBSCRIBE_INVALID_MESSAGE);
  return undefined;
};

/** `/notifications/...`: the list, the bell, marking read and the e-mail switches; unsubscribe by signed link. */
export function notificationRoutes(service: NotificationService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();

  for (const [route, change] of [
    [unsubscribeRoute, service.unsubscribe],
    [resubscribeRoute, service.resubscribe],
  ] as const)
    router.openapi(
      route,
      async (c) => {
        const body = c.req.valid('json');
        const token = c.req.valid('query').token ?? ('token' in body ? body.token : undefined);
        if (!token) throw new DomainError('validation_error', UNSUBSCRIBE_INVALID_MESSAGE);
        return c.json(await change(token), 200);
      },
      invalidLink,
    );

  // Everything else is the signed-in person's own (requireAuth per route: the token routes above need none).
  router.openapi({ ...listRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.list(currentAuth(c).user.id, c.req.valid('query')), 200),
  );
  router.openapi({ ...unreadRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.unread(currentAuth(c).user.id), 200),
  );
  router.openapi({ ...settingsRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.settings(currentAuth(c).user.id), 200),
  );
  router.openapi({ ...patchSettingsRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.updateSettings(currentAuth(c).user.id, c.req.valid('json')), 200),
  );
  router.openapi({ ...readAllRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.readAll(currentAuth(c).user.id), 200),
  );
  router.openapi(
    { ...readRoute, middleware: [requireAuth, throttle] },
    async (c) => c.json(await service.markRead(currentAuth(c).user.id, c.req.valid('param').id), 200),
    notFoundOnBadId(NOTIFICATION_NOT_FOUND),
  );

  return router;
}
