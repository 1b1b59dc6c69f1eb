// Runs a prerendered page's scripts once its HTML has been painted (docs/decisions/004-prerender-public-pages.md):
// the page is readable and its links work without JavaScript, so hydrating it waits for the first paint. The build
// writes this code and the page's chunks (entry first) into the page (vite.config.ts, bootAfterPaint); at the first
// paint they are asked for all at once (modulepreload), so no chunk waits for the one that imports it.
const list = document.getElementById('rr-chunks');
const chunks: string[] = list ? (JSON.parse(list.textContent || '[]') as string[]) : [];

let started = false;
function start() {
  if (started) return;
  started = true;
  for (const href of chunks.slice(1)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  if (chunks[0]) void import(/* @vite-ignore */ chunks[0]);
}

// Once the page has painted (a tab opened in the background paints, and starts, when it is first shown). Where the
// browser does not report paints: the frame after the first one that can paint.
if (PerformanceObserver.supportedEntryTypes?.includes('paint'))
  new PerformanceObserver((_list, observer) => {
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
else requestAnimationFrame(() => setTimeout(start, 0));

// A form sent before the app has taken the page over (Sign In pressed while the script is still on its way) is
// held, not posted, and sent by the app once it is ready (RootLayout sets data-ready): what was typed stays, and
// the password never leaves in a request the server does not read. Without this script the form posts to its own
// page, which the server answers by sending the page again (src/server/http/static.ts).
const html = document.documentElement;
let held: HTMLFormElement | null = null;
// Says at once that the press was taken (outside the app's root, so hydration never sees it).
let notice: HTMLElement | null = null;
document.addEventListener(
  'submit',
  (event) => {
    if (html.dataset.ready || !(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    held = event.target;
    held.setAttribute('aria-busy', 'true');
    if (!notice) {
      notice = document.createElement('p');
      notice.setAttribute('role', 'status');
      notice.className =
        'fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-md border bg-background p-4 text-sm shadow-lg';
      document.body.append(notice);
    }
    notice.textContent = 'Sending as soon as the page has loaded...';
  },
  true,
);
new MutationObserver((_records, observer) => {
  if (!html.dataset.ready) return;
  observer.disconnect();
  notice?.remove();
  held?.removeAttribute('aria-busy');
  if (held?.isConnected) held.requestSubmit();
  held = null;
}).observe(html, { attributes: true, attributeFilter: ['data-ready'] });

export {};
