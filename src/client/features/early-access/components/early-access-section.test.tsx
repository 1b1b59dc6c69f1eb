import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_ACCESS_FEATURES, EARLY_ACCESS_TEXT } from '@shared/early-access';
import type { EarlyAccessView } from '@shared/early-access-api';
import { PAGE_PATHS } from '@shared/routes';
import { findToast } from '@/test/find-toast';
import { renderWithProviders, stubApi } from '@/test/render';
import { EarlyAccessSection } from './early-access-section';

afterEach(() => vi.unstubAllGlobals());

const region = () => screen.getByRole('region', { name: EARLY_ACCESS_TEXT.title });
const theSwitch = () => within(region()).findByRole('switch', { name: EARLY_ACCESS_TEXT.switchLabel });

/** A server keeping the switch; `refuse` answers the PUT instead (a plan that changed meanwhile). */
function server(start: EarlyAccessView, refuse?: { status: number; body: unknown }) {
  const view = { ...start };
  return stubApi({
    'GET /account/early-access': () => ({ body: view }),
    'PUT /account/early-access': ({ body }) => {
      if (refuse) return refuse;
      const on = (body as { on: boolean }).on;
      Object.assign(view, { on, saved: on });
      return { body: view };
    },
  });
}

describe("Settings' 'Try new features first'", () => {
  it('lists the early-access features to everyone', async () => {
    server({ on: false, saved: false, available: false });
    renderWithProviders(<EarlyAccessSection />);
    expect(within(region()).getByRole('heading', { level: 2, name: EARLY_ACCESS_TEXT.title })).toBeVisible();
    const list = within(region()).getByRole('list', { name: EARLY_ACCESS_TEXT.featuresHeading });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(Object.values(EARLY_ACCESS_FEATURES).map((f) => `${f.name}: ${f.description}`));
    await theSwitch();
  });

  it('a Community member switches it on and off; each change is saved and said', async () => {
    const calls = server({ on: false, saved: false, available: true });
    const user = userEvent.setup();
    renderWithProviders(<EarlyAccessSection />);
    const control = await theSwitch();
    expect(control).toBeEnabled();
    expect(control).toHaveAttribute('aria-checked', 'false');
    expect(within(region()).queryByText(EARLY_ACCESS_TEXT.needsPlan)).not.toBeInTheDocument();

    await user.click(control);
    await findToast(EARLY_ACCESS_TEXT.on);
    expect(control).toHaveAttribute('aria-checked', 'true');
    // The visible label toggles it too.
    await user.click(within(region()).getByText(EARLY_ACCESS_TEXT.switchLabel));
    await findToast(EARLY_ACCESS_TEXT.off);
    expect(control).toHaveAttribute('aria-checked', 'false');
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ on: true }, { on: false }]);
  });

  it('on Free or Plus: the switch is off and disabled, with the way to Community', async () => {
    const calls = server({ on: false, saved: false, available: false });
    renderWithProviders(<EarlyAccessSection />);
    const control = await theSwitch();
    expect(control).toBeDisabled();
    expect(control).toHaveAttribute('aria-checked', 'false');
    expect(control).toHaveAccessibleDescription(expect.stringContaining(EARLY_ACCESS_TEXT.needsPlan));
    expect(within(region()).getByRole('link', { name: EARLY_ACCESS_TEXT.getPlan })).toHaveAttribute(
      'href',
      PAGE_PATHS.planSettings,
    );
    expect(within(region()).queryByText(EARLY_ACCESS_TEXT.keptSwitch)).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('back on Free with the switch left on: shown off, and the choice said to be kept', async () => {
    server({ on: false, saved: true, available: false });
    renderWithProviders(<EarlyAccessSection />);
    expect(await theSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(within(region()).getByText(EARLY_ACCESS_TEXT.keptSwitch)).toBeVisible();
  });

  it('a refusal (the plan ended meanwhile) puts the switch back and says why', async () => {
    server(
      { on: false, saved: false, available: true },
      { status: 403, body: { code: 'plan_required', message: EARLY_ACCESS_TEXT.needsPlan } },
    );
    const user = userEvent.setup();
    renderWithProviders(<EarlyAccessSection />);
    const control = await theSwitch();
    await user.click(control);
    await findToast('Error', EARLY_ACCESS_TEXT.needsPlan);
    await waitFor(() => expect(control).toHaveAttribute('aria-checked', 'false'));
  });
});
