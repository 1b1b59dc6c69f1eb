// Starts the API requests of an app page's first screen from its HTML (the prerendered /dashboard frame), so they
// travel while the app's scripts download instead of after them: on a slow line that is one round trip and more
// saved. The build writes the list into the page (vite.config.ts, appShellPage); the API client takes each answer
// instead of asking again (src/client/lib/early-responses.ts). Nothing here is specific to a person: the requests
// carry the visitor's own cookie, and a signed-out visitor's answers (401) are simply never used.
// Type imports only: this file must stay a chunk of its own, with no import, or it would wait for that chunk.
import type { EarlyRequest, EarlyRequests } from './lib/early-responses';

const list = document.getElementById('rr-early');
const wanted: EarlyRequest[] = list ? (JSON.parse(list.textContent || '[]') as EarlyRequest[]) : [];
const early: EarlyRequests = new Map();
for (const { path, media } of wanted) {
  // A request whose part of the page is not shown on this screen (the sidebar's badge on a phone) is not made.
  if (media && !window.matchMedia(media).matches) continue;
  const response = fetch(path, { credentials: 'same-origin' });
  // Unclaimed (a signed-out visitor, or the app already had it), its failure must not be reported as unhandled.
  response.catch(() => undefined);
  early.set(path, { at: performance.now(), response });
}
globalThis.__rrEarlyRequests = early;
