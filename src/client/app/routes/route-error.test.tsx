import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useLocation } from '@/lib/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from '../lazy-page';
import { RouteErrorBoundary } from './route-error';

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

/** The boundary as RootLayout places it, over the page at the address, with a link to another page. */
function Pages({ retry, page: Page }: { retry: () => void; page: React.ComponentType }) {
  const location = useLocation();
  return (
    <>
      <nav>
        <Link to="/other">Other page</Link>
      </nav>
      <RouteErrorBoundary locationKey={location.key} retry={retry}>
        {location.pathname === '/' ? <Page /> : <h1>The other page</h1>}
      </RouteErrorBoundary>
    </>
  );
}

/** A page whose code failed to arrive (twice: the preload and the render's try), under the error screen with a retry spy. */
function renderFailedPage(retry: () => void, load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')))) {
  const Page = lazyPage(load);
  render(
    <MemoryRouter>
      <Pages retry={retry} page={Page} />
    </MemoryRouter>,
  );
  return load;
}

describe('RouteError', () => {
  it('shows a page whose code arrives on the second try, without the error screen', async () => {
    let calls = 0;
    const load = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return { Component: () => <h1>Home at last</h1> };
    });
    const Page = lazyPage(load);
    await expect(Page.preload()).rejects.toThrow('Failed to fetch');
    render(
      <MemoryRouter>
        <Pages retry={vi.fn()} page={Page} />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Home at last' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('is left by a navigation: the next page shows', async () => {
    renderFailedPage(vi.fn());
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByRole('heading', { name: 'The other page' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
  });

  it("offers 'Try again', which loads the page again", async () => {
    const retry = vi.fn();
    renderFailedPage(retry);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('tries again by itself when the signal comes back, and says so while offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const retry = vi.fn();
    renderFailedPage(retry);
    expect(await screen.findByText(/It will load by itself when you are back online\.$/)).toBeVisible();
    expect(retry).not.toHaveBeenCalled();
    // The screen listens from its effect, which React may run a moment after the text is shown: the signal comes
    // back until it is heard, and it is heard once.
    await waitFor(() => {
      window.dispatchEvent(new Event('online'));
      expect(retry).toHaveBeenCalled();
    });
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
