import { createRoute } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { gzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { User } from '../../shared/auth';
import {
  browseQuerySchema,
  idParamSchema,
  INPUT_FALLBACK_MESSAGE,
  pageQuerySchema,
  pageSchema,
  type BrowseQuery,
  type Page,
} from '../../shared/marketplace';
import { notFound } from '../core/domain-error';
import { PageJson } from '../core/page-json';
import { objectBody } from './body';
import { COMPRESS_THRESHOLD, selectEncoding } from './compress';
import { errorResponses, jsonBody } from './openapi';
import { notFoundOnBadId } from './params';
import { currentAuth, requireAuth } from './session';
import type { AppEnv } from './types';
import { createRouter } from './validation';

/** What rides and delivery requests have in common: a user's own list, everyone's list, create, delete. */
export interface ListingService<Input, Item> {
  listMine(userId: string, page: { cursor?: string; limit: number }): Promise<Page<Item> | PageJson>;
  /** The page and Browse's filters (near, within, from, to, q). */
  browse(viewerId: string, query: BrowseQuery): Promise<Page<Item> | PageJson>;
  create(user: User, input: Input): Promise<Item>;
  /** False when the user has no such row (unknown, or another user's). */
  remove(userId: string, id: string): Promise<boolean>;
}

/** A stored page's gzip bytes (level 6, as compressResponses() makes them), made once and reused by every hit. */
export const storedGzip = {
  made: new WeakMap<PageJson, Uint8Array<ArrayBuffer>>(),
  of(page: PageJson): Uint8Array<ArrayBuffer> {
    let bytes = this.made.get(page);
    if (!bytes) this.made.set(page, (bytes = new Uint8Array(gzipSync(page.json))));
    return bytes;
  },
};

/**
 * A page as JSON. A cached page (src/server/listings) goes out as the text it was stored as, or as its gzip bytes
 * made once for every hit, so compressResponses() has nothing left to do for it (it leaves an encoded body alone).
 */
export const sendPage = <T>(c: Context, page: Page<T> | PageJson) => {
  if (!(page instanceof PageJson)) return c.json(page, 200) as never;
  const headers = { 'Content-Type': 'application/json' };
  if (page.json.length >= COMPRESS_THRESHOLD && selectEncoding(c.req.header('Accept-Encoding')) === 'gzip')
    return c.body(storedGzip.of(page), 200, {
      ...headers,
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
    }) as never;
  return c.body(page.json, 200, headers) as never;
};

export interface ListingRoutesSpec<Shape extends z.ZodRawShape, Item extends z.ZodType> {
  tag: string;
  input: z.ZodObject<Shape>;
  item: Item;
  notFoundMessage: string;
  describe: { mine: string; browse: string; created: string; deleted: string };
  /** DELETE may be refused with 409 (a request with a confirmed booking). */
  deleteMayConflict?: boolean;
}

/**
 * GET /mine, GET /browse, POST /, DELETE /{id}: every route needs a session; owner ids come from it alone.
 * `throttle` guards the writes (see writeThrottle in limits/middleware.ts).
 */
export function listingRoutes<Shape extends z.ZodRawShape, Item extends z.ZodType>(
  spec: ListingRoutesSpec<Shape, Item>,
  service: ListingService<z.output<z.ZodObject<Shape>>, z.output<Item>>,
  throttle: MiddlewareHandler<AppEnv>,
) {
  const page = pageSchema(spec.item);
  const listRoute = <Q extends typeof pageQuerySchema | typeof browseQuerySchema>(
    path: string,
    description: string,
    query: Q,
  ) =>
    createRoute({
      method: 'get',
      path,
      tags: [spec.tag],
      request: { query },
      responses: {
        200: { description, content: { 'application/json': { schema: page } } },
        ...errorResponses(400, 401),
      },
    });
  const createItemRoute = createRoute({
    method: 'post',
    path: '/',
    tags: [spec.tag],
    middleware: [throttle],
    request: { body: jsonBody(objectBody(spec.input, INPUT_FALLBACK_MESSAGE)) },
    responses: {
      201: { description: spec.describe.created, content: { 'application/json': { schema: spec.item } } },
      ...errorResponses(400, 401, 403, 413, 429),
    },
  });
  const deleteRoute = createRoute({
    method: 'delete',
    path: '/{id}',
    tags: [spec.tag],
    middleware: [throttle],
    request: { params: idParamSchema },
    responses: {
      204: { description: spec.describe.deleted },
      ...errorResponses(...([401, 403, 404, 429] as const), ...(spec.deleteMayConflict ? ([409] as const) : [])),
    },
  });

  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(listRoute('/mine', spec.describe.mine, pageQuerySchema), async (c) => {
    const { user } = currentAuth(c);
    return sendPage(c, await service.listMine(user.id, c.req.valid('query')));
  });

  router.openapi(listRoute('/browse', spec.describe.browse, browseQuerySchema), async (c) => {
    const { user } = currentAuth(c);
    return sendPage(c, await service.browse(user.id, c.req.valid('query')));
  });

  router.openapi(createItemRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.create(user, c.req.valid('json') as z.output<z.ZodObject<Shape>>), 201);
  });

  router.openapi(
    deleteRoute,
    async (c) => {
      const { user } = currentAuth(c);
      if (!(await service.remove(user.id, c.req.valid('param').id))) throw notFound(spec.notFoundMessage);
      return c.body(null, 204);
    },
    notFoundOnBadId(spec.notFoundMessage),
  );

  return router;
}
