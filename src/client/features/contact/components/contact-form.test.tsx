import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from './contact-form';

// The network is the boundary here: the route is tested over real HTTP in the server suite and in e2e.
const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ContactForm />
      <Toaster />
    </QueryClientProvider>,
  );
}

async function findToast(title: string, description: string) {
  await waitFor(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
    expect(toasts.some((t) => t.includes(title) && t.includes(description))).toBe(true);
  });
}

async function fill(values: Partial<Record<'Name' | 'Email' | 'Subject' | 'Message', string>>) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    await user.type(field, value);
  }
  await user.click(screen.getByRole('button', { name: 'Send Message' }));
}

const VALID = { Name: 'June Barley', Email: 'june@example.com', Subject: 'Feed', Message: 'Two sacks, please.' };

describe('ContactForm', () => {
  it('shows the first schema message and sends nothing when a field is wrong', async () => {
    renderForm();
    await fill({ Name: 'June', Email: 'june@' });
    await findToast('Validation Error', 'Invalid email address');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Subject is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the trimmed message, confirms with a toast and clears the form', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ id: crypto.randomUUID(), created_at: new Date().toISOString() }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderForm();
    await fill({ ...VALID, Name: '  June Barley ' });
    await findToast('Message sent!', "We'll reply by e-mail as soon as we can.");
    const [url, init] = fetchMock.mock.calls[0]! as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'June Barley',
      email: 'june@example.com',
      subject: 'Feed',
      message: 'Two sacks, please.',
    });
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(screen.getByLabelText(label)).toHaveValue('');
  });

  it("shows the server's message as an Error toast and keeps the text when the send fails", async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 'too_many_requests', message: 'Please wait a minute and try again.' }), {
        status: 429,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderForm();
    await fill(VALID);
    await findToast('Error', 'Please wait a minute and try again.');
    expect(screen.getByLabelText('Message')).toHaveValue('Two sacks, please.');
  });
});
