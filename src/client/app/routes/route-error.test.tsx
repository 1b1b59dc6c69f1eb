import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error';

afterEach(() => vi.restoreAllMocks());

/** A page whose code failed to arrive, under the error screen with a retry spy. */
function renderFailedPage(retry: () => void) {
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteError retry={retry} />,
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    },
  ]);
  render(<RouterProvider router={router} />);
}

describe('RouteError', () => {
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
