import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter, resolveLazyRoutes } from './app/router';
import './styles.css';

async function start() {
  const container = document.getElementById('root')!;
  // Prerendered pages arrive with their HTML (see scripts/prerender.tsx); the rest start from an empty shell.
  const prerendered = container.firstElementChild !== null;
  await resolveLazyRoutes(window.location.pathname).catch(() => {
    // A chunk failed to load (weak signal): the router retries it and shows the route error page if it fails.
  });
  const app = (
    <StrictMode>
      <RouterProvider router={createRouter()} />
    </StrictMode>
  );
  if (prerendered) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

void start();
