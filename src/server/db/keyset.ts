import { and, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import { decodeCursor, toPage } from './cursor';

// Services build their lists here: these are the cursor parts their sort keys are made of (see cursor.ts).
export { cursorDate, cursorFlag, cursorInstant, cursorMicros, cursorTime, cursorUuid } from './cursor';

export interface PageRequest {
  cursor?: string;
  limit: number;
}

type RowOf<Q extends PgSelect> = Q['_']['result'][number];

interface KeysetListSpec<Q extends PgSelect, K extends z.ZodTuple> {
  /** The statements are named `${name}_first` and `${name}_after` (docs/decisions/008-api-throughput.md). */
  name: string;
  /** The select with its columns and joins (`.$dynamic()`), before any WHERE; called once per statement. */
  from: () => Q;
  /** Which rows belong to the list. Status filters stay literals, so the planner matches the partial indexes. */
  filter: SQL;
  /** The rows past the cursor: one row comparison on the sort key, in placeholders that `bind` fills. */
  after: SQL;
  orderBy: SQL[];
  cursor: K;
  bind: (key: z.output<K>) => Record<string, unknown>;
  /** The sort key of a row as the cursor stores it; must match `cursor` and the ORDER BY. */
  sortKey: (row: RowOf<Q>) => readonly string[];
}

/**
 * One keyset-paginated list as two named prepared statements (first page / after a cursor), built once so a
 * request spends no time assembling SQL and PostgreSQL keeps one plan per connection. A page fetches limit + 1
 * rows: the extra one only says that another page exists.
 */
export function keysetList<Q extends PgSelect, K extends z.ZodTuple>(spec: KeysetListSpec<Q, K>) {
  const prepare = (cursor: boolean) =>
    spec
      .from()
      .where(cursor ? and(spec.filter, spec.after) : spec.filter)
      .orderBy(...spec.orderBy)
      .limit(sql.placeholder('limit'))
      .prepare(`${spec.name}_${cursor ? 'after' : 'first'}`);
  const first = prepare(false);
  const after = prepare(true);

  return async <T>(
    params: Record<string, unknown>,
    page: PageRequest,
    toItem: (row: RowOf<Q>) => T,
  ): Promise<Page<T>> => {
    const key = decodeCursor(page.cursor, spec.cursor);
    const limit = page.limit + 1;
    const rows: RowOf<Q>[] = key
      ? await after.execute({ ...params, limit, ...spec.bind(key) })
      : await first.execute({ ...params, limit });
    return toPage(rows, page.limit, toItem, spec.sortKey);
  };
}
