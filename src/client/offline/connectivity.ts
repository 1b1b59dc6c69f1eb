import { onlineManager } from '@tanstack/react-query';
import { apiResponse, ApiError, whenNoConnection } from '../lib/api-client';

/**
 * Whether the app has a connection, by what its requests meet rather than by the browser's online flag alone: on a
 * weak signal the phone says it is online while nothing gets through (and a browser opened with no signal may say
 * so too). A request that finds no connection marks the app offline (the offline banner, queries waiting, writes
 * kept in the send queue); from then on a small request to /api/health is tried now and then, and the first answer of
 * any kind marks it online again (lists reload, the send queue sends). The browser's 'online' event does the same.
 */

/** When the next check goes, after each that found nothing: soon at first, then every 30 seconds. */
export const CHECK_DELAYS_MS = [3_000, 5_000, 10_000, 20_000, 30_000];
const CHECK_TIMEOUT_MS = 10_000;

let timer: ReturnType<typeof setTimeout> | undefined;
let checks = 0;

function stopChecking() {
  clearTimeout(timer);
  timer = undefined;
  checks = 0;
}

function scheduleCheck() {
  if (timer !== undefined) return;
  const delay = CHECK_DELAYS_MS[Math.min(checks, CHECK_DELAYS_MS.length - 1)]!;
  checks += 1;
  timer = setTimeout(() => {
    timer = undefined;
    apiResponse('/health', { timeoutMs: CHECK_TIMEOUT_MS }).then(
      () => onlineManager.setOnline(true),
      (err: unknown) => {
        // The server answered (even with an error): the line works.
        if (err instanceof ApiError && err.status > 0) onlineManager.setOnline(true);
        else scheduleCheck();
      },
    );
  }, delay);
}

/** Starts following (once, in the browser). Answers a stop function (tests). */
export function followConnectivity(): () => void {
  whenNoConnection(() => {
    if (onlineManager.isOnline()) onlineManager.setOnline(false);
    scheduleCheck();
  });
  const unsubscribe = onlineManager.subscribe((online) => {
    if (online) stopChecking();
  });
  return () => {
    whenNoConnection(undefined);
    unsubscribe();
    stopChecking();
  };
}
