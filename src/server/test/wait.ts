/** Polls `ok` every 10 ms until it holds, or fails naming `what` after `withinMs`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, withinMs = 5_000) {
  const deadline = Date.now() + withinMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
