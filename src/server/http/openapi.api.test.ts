import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared/errors';
import { setupTestApp } from '../test/harness';

const { ctx } = setupTestApp();

interface OpenApiDoc {
  servers?: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

const NOTHING_HERE = { code: 'not_found', message: 'There is nothing at this address.' };

async function fetchDoc(): Promise<OpenApiDoc> {
  const res = await ctx.app.request('http://localhost/api/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDoc;
}

describe('OpenAPI document', () => {
  it('names the /api server, so a generated client reaches every documented operation', async () => {
    const doc = await fetchDoc();
    expect(doc.servers).toEqual([{ url: '/api' }]);
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(ops.length).toBeGreaterThan(10);
    for (const { method, path } of ops) {
      const concrete = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      // Exactly what a generated client does: the server's url, then the documented path.
      const res = await ctx.app.request(`http://localhost${doc.servers?.[0]?.url}${concrete}`, {
        method,
        headers: { origin: 'http://localhost' },
      });
      const body: unknown = res.status === 204 ? undefined : await res.json().catch(() => undefined);
      expect(body, `${method} ${path}`).not.toEqual(NOTHING_HERE);
    }
  });

  it("describes errors with the shared envelope's shape", async () => {
    const doc = await fetchDoc();
    const error = doc.components?.schemas?.Error as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(error.properties).sort()).toEqual(Object.keys(errorBodySchema.shape).sort());
    expect(error.required.sort()).toEqual(['code', 'message']);
  });
});
