import { describe, expect, it, vi } from 'vitest';

describe('zod without eval (main.tsx sets its global config before zod loads)', () => {
  it('takes jitless from the global config, so it never probes `new Function` under the CSP', async () => {
    const g = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
    const saved = g.__zod_globalConfig;
    g.__zod_globalConfig = { jitless: true };
    vi.resetModules();
    const probe = vi.spyOn(globalThis, 'Function');
    try {
      const { z } = await import('zod');
      expect(z.config().jitless).toBe(true);
      const schema = z.object({ name: z.string().min(1) });
      expect(schema.parse({ name: 'Ada' })).toEqual({ name: 'Ada' });
      expect(probe).not.toHaveBeenCalled();
    } finally {
      probe.mockRestore();
      g.__zod_globalConfig = saved;
      vi.resetModules();
    }
  });
});
