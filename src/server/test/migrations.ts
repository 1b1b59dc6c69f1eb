import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import journal from '../db/migrations/meta/_journal.json';

/** A migration's statements, as drizzle's migrator splits its file. */
function statements(tag: string): string[] {
  return readFileSync(new URL(`../db/migrations/${tag}.sql`, import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * For a test of one migration over data made before it: `before(db)` runs every migration up to `tag` (exclusive),
 * `run(db)` then runs `tag` itself.
 */
export function migrationSteps(tag: string) {
  const tags = journal.entries.map((e) => e.tag);
  const upTo = tags.indexOf(tag);
  if (upTo < 0) throw new Error(`no migration ${tag}`);
  const exec = async (db: PGlite, list: string[]) => {
    for (const t of list) for (const statement of statements(t)) await db.exec(statement);
  };
  return { before: (db: PGlite) => exec(db, tags.slice(0, upTo)), run: (db: PGlite) => exec(db, [tag]) };
}
