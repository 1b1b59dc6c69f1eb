import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ABOUT_MESSAGE } from '@shared/account';
import { NAME_CHANGE_UNCHECKS_ID } from '@shared/verification';
import { renderWithProviders, stubApi } from '@/test/render';
import { findToast } from '@/test/find-toast';
import { ProfileSection } from './profile-section';

afterEach(() => vi.unstubAllGlobals());

const PROFILE = { full_name: 'Ada Field', about: 'I keep bees.', email: 'ada@example.com' };

const section = () => screen.getByRole('region', { name: 'Profile' });
const nameField = () => within(section()).getByLabelText('Full name');
const aboutField = () => within(section()).getByLabelText('About you');
const save = () => within(section()).getByRole('button', { name: 'Save' });

describe('ProfileSection', () => {
  it('shows my name and about text, with how many characters are left', async () => {
    stubApi({ 'GET /account/profile': () => ({ body: PROFILE }) });
    renderWithProviders(<ProfileSection />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your profile...');
    expect(await within(section()).findByLabelText('Full name')).toHaveValue('Ada Field');
    expect(aboutField()).toHaveValue('I keep bees.');
    expect(aboutField()).toHaveAccessibleDescription('Optional. Shown on your profile page. 488 characters left.');
    expect(nameField()).toBeRequired();
    expect(aboutField()).not.toBeRequired();
  });

  it("saves the trimmed name and about, toasts 'Profile updated' and reloads the session and profiles", async () => {
    let saved = PROFILE;
    const calls = stubApi({
      'GET /account/profile': () => ({ body: saved }),
      'PATCH /account/profile': ({ body }) => {
        saved = { ...saved, ...(body as typeof PROFILE) };
        return { body: saved };
      },
      'GET /auth/session': () => ({ body: { user: null, session: null } }),
    });
    const user = userEvent.setup();
    const { client } = renderWithProviders(<ProfileSection />);
    // The session (the user's name elsewhere) and a profile page are loaded: both must be reloaded after the save.
    client.setQueryData(['auth', 'session'], { user: null, session: null });
    client.setQueryData(['users', 'x', 'profile'], { stale: false });
    await user.clear(await within(section()).findByLabelText('Full name'));
    await user.type(nameField(), '  Ada Meadow ');
    await user.clear(aboutField());
    await user.type(aboutField(), 'Bees and hay.');
    expect(aboutField()).toHaveAccessibleDescription('Optional. Shown on your profile page. 487 characters left.');
    await user.click(save());
    await findToast('Profile updated');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { full_name: 'Ada Meadow', about: 'Bees and hay.' },
    ]);
    await waitFor(() => expect(nameField()).toHaveValue('Ada Meadow'));
    expect(client.getQueryState(['auth', 'session'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['users', 'x', 'profile'])?.isInvalidated).toBe(true);
  });

  it('an empty about is sent as null (it is optional)', async () => {
    const calls = stubApi({
      'GET /account/profile': () => ({ body: PROFILE }),
      'PATCH /account/profile': () => ({ body: { ...PROFILE, about: null } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    await user.clear(await within(section()).findByLabelText('About you'));
    await user.click(save());
    await findToast('Profile updated');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ full_name: 'Ada Field', about: null });
    expect(aboutField()).toHaveValue('');
  });

  it('an empty name shows the spec message under the field, focuses it, and sends nothing', async () => {
    const calls = stubApi({ 'GET /account/profile': () => ({ body: PROFILE }) });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    await user.clear(await within(section()).findByLabelText('Full name'));
    await user.click(save());
    await findToast('Validation Error', 'Full name is required');
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(nameField()).toHaveAccessibleDescription('Full name is required');
    expect(nameField()).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  it('more than 500 characters about me: the counter says how many too many, and the shared message shows', async () => {
    const calls = stubApi({ 'GET /account/profile': () => ({ body: { ...PROFILE, about: null } }) });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    await user.click(await within(section()).findByLabelText('About you'));
    await user.paste('a'.repeat(502));
    expect(aboutField()).toHaveAccessibleDescription('Optional. Shown on your profile page. 2 characters too many.');
    await user.click(save());
    await findToast('Validation Error', ABOUT_MESSAGE);
    expect(aboutField()).toHaveAttribute('aria-invalid', 'true');
    expect(within(section()).getByRole('alert')).toHaveTextContent(ABOUT_MESSAGE);
    expect(aboutField()).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  it("the server's refusal is a toast and what I typed stays", async () => {
    stubApi({
      'GET /account/profile': () => ({ body: PROFILE }),
      'PATCH /account/profile': () => ({
        status: 400,
        body: { code: 'validation_error', message: 'Full name must be less than 100 characters' },
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    await user.type(await within(section()).findByLabelText('Full name'), 'x');
    await user.click(save());
    await findToast('Validation Error', 'Full name must be less than 100 characters');
    expect(nameField()).toHaveValue('Ada Fieldx');
    expect(save()).toBeEnabled();
  });

  it('works by keyboard: Tab from the name to about to Save, Enter in the name field saves', async () => {
    const calls = stubApi({
      'GET /account/profile': () => ({ body: PROFILE }),
      'PATCH /account/profile': () => ({ body: { ...PROFILE, full_name: 'Ada Fields' } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    await user.click(await within(section()).findByLabelText('Full name'));
    await user.tab();
    expect(aboutField()).toHaveFocus();
    await user.tab();
    expect(save()).toHaveFocus();
    await user.click(nameField());
    await user.keyboard('s{Enter}');
    await findToast('Profile updated');
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
  });

  it('a failed load says so and offers to try again', async () => {
    let fail = true;
    stubApi({
      'GET /account/profile': () =>
        fail ? { status: 500, body: { code: 'internal_error', message: 'Something broke.' } } : { body: PROFILE },
    });
    const user = userEvent.setup();
    renderWithProviders(<ProfileSection />);
    expect(await within(section()).findByRole('alert')).toHaveTextContent("We couldn't load your profile.");
    fail = false;
    await user.click(within(section()).getByRole('button', { name: 'Try again' }));
    expect(await within(section()).findByLabelText('Full name')).toHaveValue('Ada Field');
  });

  it("with 'ID checked', says before saving that a new name removes it (and only when the name differs)", async () => {
    const idCheck = (checked: boolean) => ({
      checked,
      status: checked ? 'approved' : 'none',
      submitted_at: null,
      decided_at: null,
      reason: null,
      next_attempt_at: null,
      attempts_left: 3,
    });
    let checked = true;
    stubApi({
      'GET /account/profile': () => ({ body: PROFILE }),
      'GET /account/id-check': () => ({ body: idCheck(checked) }),
    });
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<ProfileSection />);
    const name = await within(section()).findByLabelText('Full name');
    expect(screen.queryByText(NAME_CHANGE_UNCHECKS_ID)).not.toBeInTheDocument();
    await user.type(name, 'a');
    expect(await screen.findByText(NAME_CHANGE_UNCHECKS_ID)).toHaveAttribute('role', 'status');
    expect(name).toHaveAccessibleDescription(NAME_CHANGE_UNCHECKS_ID);
    await user.type(name, '{Backspace}');
    expect(screen.queryByText(NAME_CHANGE_UNCHECKS_ID)).not.toBeInTheDocument();
    unmount();

    checked = false;
    renderWithProviders(<ProfileSection />);
    await user.type(await within(section()).findByLabelText('Full name'), 'a');
    expect(within(section()).getByLabelText('Full name')).toHaveValue('Ada Fielda');
    expect(screen.queryByText(NAME_CHANGE_UNCHECKS_ID)).not.toBeInTheDocument();
  });
});
