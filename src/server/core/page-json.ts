import type { Page } from '../../shared/marketplace';

/**
 * A page already serialized as JSON (a cached page needing nothing personal): the route sends the text as the body
 * as it is (http/listing-routes.ts, which also keeps its gzip bytes), instead of serializing the page again.
 */
export class PageJson {
  constructor(readonly json: string) {}
}

/** The page either way (benches and tests that read a list's cursor). */
export const pageOf = <T>(page: Page<T> | PageJson): Page<T> =>
  page instanceof PageJson ? (JSON.parse(page.json) as Page<T>) : page;
