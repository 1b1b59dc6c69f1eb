import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('server start-up', () => {
  it('stops with a clear message and exit code 1 when a setting is invalid', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'mysql://nope', SERVE_CLIENT: 'false' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid environment configuration');
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL must start with postgres:// or postgresql://');
  });
});
