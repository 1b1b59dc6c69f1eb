import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { pageSchema, type Page } from '@shared/marketplace';
import { api } from './api-client';

const PAGE_SIZE = 20;

/** One keyset page of a list endpoint, checked against the shared contract so a drifted API fails loudly. */
export async function fetchPage<T extends z.ZodType>(
  path: string,
  item: T,
  cursor: string | null,
  signal?: AbortSignal,
  filters: Record<string, string> = {},
): Promise<Page<z.output<T>>> {
  const params = new URLSearchParams({ ...filters, limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  const body = await api<unknown>(`${path}?${params.toString()}`, { signal });
  return pageSchema(item).parse(body) as Page<z.output<T>>;
}

/** Shared infinite-query settings: the cursor of the last page is the next page's param; null ends the list. */
const cursorPaging = {
  initialPageParam: null as string | null,
  getNextPageParam: <T>(last: Page<T>) => last.next_cursor,
};

/**
 * The hook of one list endpoint's infinite query; `filters` are fixed query parameters (e.g. `role`), `errorToast`
 * is the spec's 'Error' toast text when a load fails. The hook takes the page's own parameters (Browse filters from
 * the URL): each set is its own cached list under `queryKey`, so invalidating `queryKey` reloads them all.
 */
export function listQuery<T extends z.ZodType>({
  path,
  item,
  queryKey,
  filters,
  errorToast,
}: {
  path: string;
  item: T;
  queryKey: readonly string[];
  filters?: Record<string, string>;
  errorToast?: string;
}) {
  const options = (params: Record<string, string>) =>
    infiniteQueryOptions({
      queryKey: Object.keys(params).length ? [...queryKey, params] : queryKey,
      queryFn: ({ pageParam, signal }) => fetchPage(path, item, pageParam, signal, { ...filters, ...params }),
      ...cursorPaging,
      meta: errorToast ? { errorToast } : undefined,
    });
  return function useList(params: Record<string, string> = {}) {
    return useInfiniteQuery(options(params));
  };
}
