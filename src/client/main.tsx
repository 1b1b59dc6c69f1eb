import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from '@/lib/router';
import { AppRoutes, resolveLazyRoutes } from './app/router';
import { appNavigations } from './lib/navigations';
import './styles.css';

// The CSP forbids eval. Zod probes for it with `new Function` whenever it builds an object schema (for its JIT), and
// the browser reports each probe as a CSP violation; `jitless` skips it. Zod keeps its settings in this global,
// read when zod loads (always later, in a page's chunk): setting it here keeps zod itself out of the entry.
// src/client/lib/zod-jitless.isolated.test.ts checks that zod still honours it.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

/**
 * Ends the current task and goes on in a new one, after anything already queued (a tap, a paint, the class merger's
 * warm-up that src/client/lib/class-merger.ts queues when a page loads it). Starting the app is several tasks instead of one (the modules'
 * evaluation, finding and loading the page's code, the warm-up, then the hydration React slices itself): on a slow
 * phone none of them blocks input for long (Total Blocking Time).
 */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function start() {
  // The app's moments, for bench/slow-line.ts (BENCH_WATERFALL) and the DevTools timeline: its script has run, its
  // first page's code is in, it renders.
  performance.mark('rr:start');
  await nextTask();
  const container = document.getElementById('root')!;
  // Prerendered pages arrive with their HTML (see scripts/prerender.tsx) and are hydrated; the rest start from an
  // empty shell. An app page's prerendered frame (data-app-shell: /dashboard while the session is looked up) is
  // rendered over instead: the app may already know more (the session kept on the device) than the frame shows.
  const prerendered = container.firstElementChild !== null && container.dataset.appShell === undefined;
  await resolveLazyRoutes(window.location.pathname).catch(() => {
    // A chunk failed to load (weak signal): the page tries once more as it renders, then shows the route error page.
  });
  performance.mark('rr:routes');
  await nextTask();
  performance.mark('rr:render');
  const app = (
    <StrictMode>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </StrictMode>
  );
  // As a transition, hydration yields to the browser every few milliseconds instead of blocking input for one
  // long task (Total Blocking Time on a slow phone); the prerendered page stays visible meanwhile.
  if (prerendered) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
  // The service worker precaches the whole app: it starts once the page itself has loaded, not competing with it.
  if (import.meta.env.PROD) {
    const register = () => void import('./lib/service-worker').then((m) => m.startServiceWorker(appNavigations));
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }
}

void start();
