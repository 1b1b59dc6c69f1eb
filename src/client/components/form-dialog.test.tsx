import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { ApiError, QueuedError } from '@/lib/api-client';
import { renderWithProviders } from '@/test/render';
import { FormDialogContent, sendThenClose } from './form-dialog';

/** A dialog whose form sends with `send` through sendThenClose, as the app's form dialogs do. */
function SendDialog({ send, onError }: { send: () => Promise<unknown>; onError?: (err: unknown) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger>Open</DialogTrigger>
      <FormDialogContent
        title="Save this search"
        description="Name it."
        busy={busy}
        submitLabel="Save"
        busyLabel="Saving..."
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          void sendThenClose(send, () => setOpen(false), onError).finally(() => setBusy(false));
        }}
      >
        <input aria-label="Name" />
      </FormDialogContent>
    </Dialog>
  );
}

async function openAndSend() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Open' }));
  const dialog = screen.getByRole('dialog', { name: 'Save this search' });
  await user.click(screen.getByRole('button', { name: 'Save' }));
  return { user, dialog };
}

describe('a form dialog', () => {
  it("shows the busy label while sending, and 'Cancel' still closes it", async () => {
    renderWithProviders(<SendDialog send={() => new Promise(() => {})} />);
    const { user, dialog } = await openAndSend();
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toBeEnabled();
    await user.click(cancel);
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('closes once sent', async () => {
    renderWithProviders(<SendDialog send={() => Promise.resolve()} />);
    const { dialog } = await openAndSend();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('closes when the change is kept to send later (no signal)', async () => {
    const onError = vi.fn();
    renderWithProviders(<SendDialog send={() => Promise.reject(new QueuedError())} onError={onError} />);
    const { dialog } = await openAndSend();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('stays open on any other failure, and tells onError', async () => {
    const refused = new ApiError(409, 'limit', 'Too many.');
    const onError = vi.fn();
    renderWithProviders(<SendDialog send={() => Promise.reject(refused)} onError={onError} />);
    const { dialog } = await openAndSend();
    await waitFor(() => expect(onError).toHaveBeenCalledWith(refused));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(dialog).toBeInTheDocument();
  });
});
