import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const asked = vi.hoisted(() => ({ times: 0 }));

// tailwind-merge's chunk does not arrive (a weak signal): importing it fails, as a failed dynamic import does.
vi.mock('@/lib/class-merger', () => {
  asked.times += 1;
  throw new TypeError('Failed to fetch dynamically imported module: /assets/class-merger.js');
});

const { lazyPage, loadClassMerger } = await import('./lazy-page');
const { cn, setClassMerger } = await import('@/lib/utils');

// The test setup loaded the real merger for every test; this file's own modules start without one.
setClassMerger(undefined);

describe('a page whose wait for tailwind-merge fails', () => {
  it('still loads and renders, its classes joined unmerged', async () => {
    await expect(loadClassMerger()).resolves.toBeUndefined();
    expect(asked.times).toBeGreaterThan(0);
    const Page = lazyPage(async () => ({
      Component: () => <p className={cn('p-2', 'p-4')}>The page</p>,
    }));
    await expect(Page.preload()).resolves.toBeUndefined();
    render(<Page />);
    const text = screen.getByText('The page');
    expect(text).toBeVisible();
    // Not merged: both classes, the later one winning by the stylesheet's order rather than by tailwind-merge.
    expect(text).toHaveClass('p-2', 'p-4');
  });
});
