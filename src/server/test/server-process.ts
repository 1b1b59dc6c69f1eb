import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Runs the server entry in its own process, as `npm start` would (through tsx here, so no build is needed), with
 * the given environment on top of this one's.
 */
export function spawnServer(env: Record<string, string>, entry = 'src/server/main.ts'): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, NODE_ENV: 'test', SERVE_CLIENT: 'false', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the server's base URL once it logs that it listens; rejects if it exits first or takes too long. */
export async function listening(server: ServerProcess, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [, scheme, port] = server.output().match(/listening on (https?):\/\/localhost:(\d+)/) ?? [];
    if (port) return `${scheme}://127.0.0.1:${port}`;
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server did not start in ${timeoutMs} ms:\n${server.output()}`);
}
