import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useSchemaForm } from './use-schema-form';

const schema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  agree: z.literal(true, { error: 'Please agree' }),
});

function NameForm({ load, onValid }: { load: () => Promise<typeof schema>; onValid: (v: unknown) => Promise<void> }) {
  const form = useSchemaForm({ load, order: ['name', 'agree'], onValid });
  return (
    <form aria-label="Details" {...form.formProps}>
      <label htmlFor="name">Name</label>
      <input id="name" name="name" aria-invalid={form.errors.name ? true : undefined} />
      {form.errors.name ? <p role="alert">{form.errors.name}</p> : null}
      <input id="agree" name="agree" type="checkbox" aria-label="Agree" />
      <button type="submit" disabled={form.busy}>
        Send
      </button>
    </form>
  );
}

const toasts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');

describe('useSchemaForm', () => {
  it('fetches the schema at the first focus, not before; sends the parsed values (a checkbox as its tick)', async () => {
    const load = vi.fn(async () => schema);
    const onValid = vi.fn(async () => {});
    render(<NameForm load={load} onValid={onValid} />);
    expect(load).not.toHaveBeenCalled();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), '  Ann ');
    expect(load).toHaveBeenCalledTimes(1);
    await user.click(screen.getByLabelText('Agree'));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ann', agree: true }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the first failure as a toast with focus on its field; the message follows what is typed next', async () => {
    const onValid = vi.fn(async () => {});
    render(
      <>
        <NameForm load={async () => schema} onValid={onValid} />
        <Toaster />
      </>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(toasts().some((t) => t.includes('Validation Error') && t.includes('Name is required'))).toBe(true),
    );
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Name is required');
    await user.type(screen.getByLabelText('Name'), 'Ann');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(onValid).not.toHaveBeenCalled();
  });

  it('a schema that cannot be fetched says there is no connection, and is fetched again at the next press', async () => {
    let online = false;
    const load = vi.fn(async () => {
      if (!online) throw new TypeError('Failed to fetch dynamically imported module');
      return schema;
    });
    const onValid = vi.fn(async () => {});
    render(
      <>
        <NameForm load={load} onValid={onValid} />
        <Toaster />
      </>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Ann');
    await user.click(screen.getByLabelText('Agree'));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toasts().some((t) => t.includes('No connection. Please try again.'))).toBe(true));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('Ann');
    online = true;
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ann', agree: true }));
  });
});
