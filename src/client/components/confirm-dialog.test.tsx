import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ConfirmDeleteButton } from './confirm-delete-button';

describe('ConfirmDialog on a line that does not answer', () => {
  it("shows the busy label, and 'Cancel' still closes it at once; the late answer changes nothing", async () => {
    let finish!: () => void;
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderWithProviders(
      <ConfirmDeleteButton
        label="Delete ride A → B"
        title="Delete this ride?"
        description="Gone."
        onConfirm={onConfirm}
      />,
    );
    const user = userEvent.setup();
    const trigger = screen.getByRole('button', { name: 'Delete ride A → B' });
    await user.click(trigger);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this ride?' });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('button', { name: 'Deleting...' })).toBeDisabled();

    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toBeEnabled();
    await user.click(cancel);
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();

    finish();
    await Promise.resolve();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('Escape closes it while busy too', async () => {
    renderWithProviders(
      <ConfirmDeleteButton
        label="Delete request Feed"
        title="Delete this request?"
        description="Gone."
        onConfirm={() => new Promise(() => {})}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete request Feed' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('button', { name: 'Deleting...' })).toBeVisible();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
