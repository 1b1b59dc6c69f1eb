import { createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import {
  accountProfileSchema,
  accountSessionsSchema,
  changePasswordSchema,
  profileInputSchema,
} from '../../shared/account';
import { confirmIdentitySchema, RECENT_CHECK_MINUTES, WRONG_PASSWORD } from '../../shared/two-factor';
import { idParamSchema, INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { DomainError } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import { sensitive } from '../http/sensitive';
import type { AppEnv } from '../http/types';
import { createRouter, firstIssueMessage, type ValidationResult } from '../http/validation';
import type { IdentityChecks } from './identity';
import { SESSION_NOT_FOUND, type AccountService, type Caller } from './service';

const tags = ['account'];

const profileRoute = createRoute({
  method: 'get',
  path: '/profile',
  tags,
  responses: {
    200: {
      description: 'My name, About you and e-mail',
      content: { 'application/json': { schema: accountProfileSchema } },
    },
    ...errorResponses(401),
  },
});

const patchProfileRoute = createRoute({
  method: 'patch',
  path: '/profile',
  tags,
  request: { body: jsonBody(objectBody(profileInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description:
        "The profile after the change. The whole form: an omitted, null or empty 'about' clears it. The new name " +
        'shows at once wherever I am shown (GET /auth/session included, on every instance).',
      content: { 'application/json': { schema: accountProfileSchema } },
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

const passwordRoute = createRoute({
  method: 'post',
  path: '/password',
  tags,
  request: { body: jsonBody(changePasswordSchema) },
  responses: {
    204: {
      description:
        "Password changed: every other session ended, this one stays; a 'password_changed' notice and e-mail were sent",
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

const sessionsRoute = createRoute({
  method: 'get',
  path: '/sessions',
  tags,
  responses: {
    200: {
      description: 'My signed-in browsers, most recently active first; `current` marks this one',
      content: { 'application/json': { schema: accountSessionsSchema } },
    },
    ...errorResponses(401),
  },
});

const deleteSessionRoute = createRoute({
  method: 'delete',
  path: '/sessions/{id}',
  tags,
  request: { params: idParamSchema },
  responses: {
    204: { description: 'That session ended, on every instance at once' },
    ...errorResponses(401, 404, 429),
  },
});

/** No input: JSON `{}` or no body at all. */
const emptyBody = {
  required: false,
  content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
} as const;

const signOutOthersRoute = createRoute({
  method: 'post',
  path: '/sessions/sign-out-others',
  tags,
  request: { body: emptyBody },
  responses: {
    200: {
      description: 'Every other session of mine ended; how many',
      content: { 'application/json': { schema: z.object({ count: z.number().int() }) } },
    },
    ...errorResponses(400, 401, 429),
  },
});

const confirmIdentityRoute = createRoute({
  method: 'post',
  path: '/confirm-identity',
  tags,
  request: { body: jsonBody(objectBody(confirmIdentitySchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    204: {
      description:
        "'Confirm it's you': the password (and, with two-factor on, a code) was right; for the next " +
        `${RECENT_CHECK_MINUTES} minutes this session may take sensitive actions without asking again`,
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

/**
 * The password form's schema carries refinements (matching, common passwords), so it cannot be rebuilt with
 * objectBody: a body that is not an object at all answers the general message here instead of zod's wording.
 */
function passwordHook(result: ValidationResult): undefined {
  if (result.success) return undefined;
  const issue = (result.error as { issues?: { path: PropertyKey[] }[] } | undefined)?.issues?.[0];
  if (issue && issue.path.length === 0) throw new DomainError('validation_error', INPUT_FALLBACK_MESSAGE);
  throw new DomainError('validation_error', firstIssueMessage(result));
}

export function callerOf(c: Context<AppEnv>): Caller {
  const { user, session } = currentAuth(c);
  return { userId: user.id, sessionId: session.id };
}

/** `/account/...`: the signed-in person's own profile, password and sessions (Settings). */
export function accountRoutes(service: AccountService, identity: IdentityChecks, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();

  router.openapi({ ...confirmIdentityRoute, middleware: [requireAuth, sensitive, throttle] }, async (c) => {
    const { password, code } = c.req.valid('json');
    await identity.verify(callerOf(c), { password, code }, { wrongPasswordMessage: WRONG_PASSWORD });
    return c.body(null, 204);
  });

  router.openapi({ ...profileRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.profile(currentAuth(c).user.id), 200),
  );
  router.openapi({ ...patchProfileRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.updateProfile(currentAuth(c).user.id, c.req.valid('json')), 200),
  );
  router.openapi(
    { ...passwordRoute, middleware: [requireAuth, sensitive, throttle] },
    async (c) => {
      await service.changePassword(callerOf(c), c.req.valid('json'));
      return c.body(null, 204);
    },
    passwordHook,
  );
  router.openapi({ ...sessionsRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.listSessions(callerOf(c)), 200),
  );
  router.openapi({ ...signOutOthersRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.signOutOthers(callerOf(c)), 200),
  );
  router.openapi(
    { ...deleteSessionRoute, middleware: [requireAuth, throttle] },
    async (c) => {
      await service.signOutSession(callerOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    },
    notFoundOnBadId(SESSION_NOT_FOUND),
  );

  return router;
}
