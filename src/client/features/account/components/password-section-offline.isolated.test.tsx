import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '@shared/password-rules';
import { renderWithProviders, stubApi } from '@/test/render';
import { findToast } from '@/test/find-toast';
import { PasswordSection } from './password-section';

// The common-password list cannot be fetched (offline for a moment, a chunk gone after a deploy).
vi.mock('@shared/common-passwords', () => {
  throw new Error('Failed to fetch dynamically imported module');
});
afterEach(() => vi.unstubAllGlobals());

it('without the common-password list the form still checks the other rules and lets the server decide', async () => {
  const calls = stubApi({
    'POST /account/password': () => ({
      status: 400,
      body: { code: 'validation_error', message: COMMON_PASSWORD_MESSAGE },
    }),
  });
  renderWithProviders(<PasswordSection />);
  const section = screen.getByRole('region', { name: 'Password' });
  const user = userEvent.setup();
  await user.type(within(section).getByLabelText('Current password'), 'Old-Password-1');
  await user.type(within(section).getByLabelText('New password'), 'Password123!');
  await user.type(within(section).getByLabelText('Confirm new password'), 'Password124!');
  await user.click(within(section).getByRole('button', { name: 'Change password' }));
  await findToast('Validation Error', 'Passwords do not match');
  expect(calls).toEqual([]);

  await user.clear(within(section).getByLabelText('Confirm new password'));
  await user.type(within(section).getByLabelText('Confirm new password'), 'Password123!');
  await user.click(within(section).getByRole('button', { name: 'Change password' }));
  await findToast('Validation Error', COMMON_PASSWORD_MESSAGE);
  expect(calls).toHaveLength(1);
});
