import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** For the tests: sonner keeps toasts in a module-wide store, so look for the toast carrying the title (and text). */
export async function findToast(title: string, description?: string) {
  await waitFor(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
    expect(toasts.some((t) => t.includes(title) && (!description || t.includes(description)))).toBe(true);
  });
}
