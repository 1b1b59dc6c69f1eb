import { render, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client';
import { TOO_OFTEN_MESSAGE, toastDeleteError, toastMutationError } from './mutation-errors';
import { toastSubmitError } from './toast';

// The network is the boundary: each answer goes through the real api client, as the write hooks' calls do.
const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);
beforeEach(() => {
  render(<Toaster />);
});
afterEach(() => fetchMock.mockReset());

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const throttled = () =>
  json(
    429,
    { code: 'too_many_requests', message: 'Too many requests. Try again in 7 seconds.' },
    { 'Retry-After': '7' },
  );

/** The error the api client throws for the next answer. */
async function failureOf(path: string, method: string, body?: unknown): Promise<unknown> {
  return api(path, { method, body }).then(
    () => expect.unreachable('the call should fail'),
    (err: unknown) => err,
  );
}

function toastTexts() {
  return [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
}

async function findToast(title: string, description: string) {
  await waitFor(() => expect(toastTexts().some((t) => t.includes(title) && t.includes(description))).toBe(true));
}

describe('a marketplace write refused by the write throttle (429 too_many_requests)', () => {
  it.each([
    ['post ride', '/rides', 'POST', { origin: 'A' }],
    ['create request', '/requests', 'POST', { title: 'T' }],
    ['accept', '/bookings', 'POST', { request_id: crypto.randomUUID() }],
  ])("%s shows 'Error' / the wait-a-moment text", async (_label, path, method, body) => {
    fetchMock.mockResolvedValue(throttled());
    toastMutationError(await failureOf(path, method, body));
    await findToast('Error', TOO_OFTEN_MESSAGE);
    expect(TOO_OFTEN_MESSAGE).toBe("You're doing that too often. Please wait a moment.");
    expect(toastTexts().some((t) => t.includes('Try again in 7 seconds'))).toBe(false);
  });

  it.each([
    ['ride', 'Failed to delete ride'],
    ['request', 'Failed to delete request'],
  ])('delete %s shows the same text, and its own failure text otherwise', async (kind, failure) => {
    fetchMock.mockResolvedValueOnce(throttled());
    toastDeleteError(await failureOf(`/${kind}s/${crypto.randomUUID()}`, 'DELETE'), failure);
    await findToast('Error', TOO_OFTEN_MESSAGE);
    fetchMock.mockResolvedValueOnce(json(500, { code: 'internal_error', message: 'Something broke.' }));
    toastDeleteError(await failureOf(`/${kind}s/${crypto.randomUUID()}`, 'DELETE'), failure);
    await findToast('Error', failure);
  });
});

describe('other write failures keep their toasts', () => {
  it("validation_error is 'Validation Error' with the server's first message", async () => {
    fetchMock.mockResolvedValue(json(400, { code: 'validation_error', message: 'Origin is required' }));
    toastMutationError(await failureOf('/rides', 'POST', {}));
    await findToast('Validation Error', 'Origin is required');
  });

  it('a marketplace code gets its spec title and text', async () => {
    fetchMock.mockResolvedValue(json(409, { code: 'request_unavailable', message: 'gone' }));
    toastMutationError(await failureOf('/bookings', 'POST', {}));
    await findToast('Unavailable', 'This request is no longer available.');
  });
});

describe('sign-up keeps the server’s own words', () => {
  it("a 429 from the attempt limit shows the server's message, not the write-throttle text", async () => {
    fetchMock.mockResolvedValue(
      json(429, { code: 'too_many_requests', message: 'Too many attempts. Please try again in 5 minutes.' }),
    );
    toastSubmitError(await failureOf('/auth/sign-up', 'POST', {}));
    await findToast('Error', 'Too many attempts. Please try again in 5 minutes.');
  });
});

describe('lifecycle refusals', () => {
  it.each([
    ['wrong_delivery_code', 'That delivery code is not correct.'],
    ['delivery_code_locked', 'Too many attempts. Ask the requester to mark the delivery as received.'],
    ['booking_state_changed', 'This booking has changed. Reload the page to see where it stands.'],
  ])("%s is 'Error' with its text", async (code, text) => {
    fetchMock.mockResolvedValue(json(409, { code, message: 'server words' }));
    toastMutationError(await failureOf(`/bookings/${crypto.randomUUID()}/complete`, 'POST', {}));
    await findToast('Error', text);
  });

  it("deleting a request with a confirmed booking says why instead of 'Failed to delete request'", async () => {
    fetchMock.mockResolvedValue(json(409, { code: 'confirmed_booking_exists', message: 'server words' }));
    toastDeleteError(await failureOf(`/requests/${crypto.randomUUID()}`, 'DELETE'), 'Failed to delete request');
    await findToast('Error', 'Cancel the confirmed booking before deleting this request.');
  });
});
