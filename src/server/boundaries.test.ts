import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer and feature boundaries of eslint.config.js (docs/decisions/015-layer-boundaries-and-domain-errors.md)
 * must fail lint when crossed. The offending code lives in these strings, linted as if it were the named file, so
 * no broken source file is ever on disk for `npm run lint` to trip over.
 */

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The ids of the rules that fire on `code` as the file `filePath`. */
async function rulesFiring(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.map((m) => m.ruleId ?? '');
}

const ZONES = 'import-x/no-restricted-paths';

describe('lint boundaries', () => {
  it('keeps services off the HTTP layer: no http/ and no Hono, not even for types', async () => {
    expect(
      await rulesFiring('src/server/rides/service.ts', "export { currentAuth } from '../http/session';\n"),
    ).toContain(ZONES);
    expect(await rulesFiring('src/server/bookings/service.ts', "export type { Context } from 'hono';\n")).toContain(
      'no-restricted-imports',
    );
    expect(
      await rulesFiring('src/server/db/keyset.ts', "export { sendError } from '../http/error-status';\n"),
    ).toContain(ZONES);
  });

  it('lets route files use the HTTP layer', async () => {
    const rules = await rulesFiring(
      'src/server/rides/routes.ts',
      "export { createRouter } from '../http/validation';\n",
    );
    expect(rules).not.toContain(ZONES);
    expect(rules).not.toContain('no-restricted-imports');
  });

  it('lets a server feature reach another only through its index.ts', async () => {
    expect(
      await rulesFiring(
        'src/server/contact/routes.ts',
        "export { createAttemptCounter } from '../limits/attempt-counter';\n",
      ),
    ).toContain(ZONES);
    expect(
      await rulesFiring('src/server/contact/routes.ts', "export { createAttemptCounter } from '../limits';\n"),
    ).not.toContain(ZONES);
  });

  it('keeps http/ from importing a feature', async () => {
    expect(
      await rulesFiring('src/server/http/session.ts', "export type { AuthService } from '../auth/service';\n"),
    ).toContain(ZONES);
  });

  it('keeps the client and the server apart', async () => {
    expect(
      await rulesFiring(
        'src/client/features/rides/api/my-rides.ts',
        "export { rides } from '../../../../server/db/schema';\n",
      ),
    ).toContain(ZONES);
    expect(await rulesFiring('src/server/app.ts', "export { cn } from '../client/lib/utils';\n")).toContain(ZONES);
    expect(await rulesFiring('src/shared/money.ts', "export { cn } from '@/lib/utils';\n")).toContain(ZONES);
  });

  it("keeps a client feature out of another feature's internals", async () => {
    expect(
      await rulesFiring(
        'src/client/features/rides/components/my-rides.tsx',
        "export { useSession } from '@/features/auth/api/session';\n",
      ),
    ).toContain(ZONES);
  });

  it('refuses import cycles', async () => {
    // db/client.ts imports db/schema.ts: schema importing client back closes a cycle.
    expect(await rulesFiring('src/server/db/schema.ts', "export { openDatabase } from './client';\n")).toContain(
      'import-x/no-cycle',
    );
  });
});

describe("docs/architecture.md's parts map", () => {
  /** The folders the map lists: a line of the map's code block whose first word is a folder (or several). */
  const mapped = (map: string, indent: string) =>
    new Set(
      map
        .split('\n')
        .filter((line) => line.startsWith(indent) && !line.startsWith(`${indent} `))
        .flatMap((line) =>
          line
            .slice(indent.length)
            .split(/\s{2,}/)[0]!
            .split(' '),
        )
        .filter((word) => word.endsWith('/'))
        .map((word) => word.slice(0, -1)),
    );
  const folders = (dir: string) =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();

  it('names every folder of src/server and src/client, and no folder that is gone', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const map = doc.slice(doc.indexOf('## Parts'), doc.indexOf('## How a request flows'));
    const server = map.slice(map.indexOf('src/server/'), map.indexOf('src/client/'));
    const client = map.slice(map.indexOf('src/client/'), map.indexOf('e2e/'));
    expect([...mapped(server, '  ')].sort()).toEqual(folders('src/server'));
    expect([...mapped(client, '  ')].sort()).toEqual(folders('src/client'));
  });
});
