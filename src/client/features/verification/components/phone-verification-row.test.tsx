import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE_CODE_FORMAT, PHONE_INVALID, PHONE_TAKEN, phoneCodeWrong, type PhoneState } from '@shared/verification';
import { findToast } from '@/test/find-toast';
import { renderWithProviders, stubApi } from '@/test/render';
import { PHONE_TEXT } from '../api/phone';
import { PhoneVerificationRow } from './phone-verification-row';

afterEach(() => vi.unstubAllGlobals());

const NUMBER = '(201) 555-0123';
const EXPIRES = '2026-11-29T22:40:00.000Z';
const none: PhoneState = { phone: null, verified_at: null, pending: null };
const waiting: PhoneState = { ...none, pending: { phone: NUMBER, expires_at: EXPIRES } };
const verified: PhoneState = { phone: NUMBER, verified_at: '2026-11-29T22:31:00.000Z', pending: null };
const refusal = (status: number, code: string, message: string) => () => ({ status, body: { code, message } });

function renderRow() {
  return renderWithProviders(
    <ul>
      <PhoneVerificationRow />
    </ul>,
  );
}
const phoneField = () => screen.getByLabelText('Phone number');
const codeField = () => screen.getByLabelText('Code');
const button = (name: string) => screen.getByRole('button', { name });

describe('PhoneVerificationRow', () => {
  it("not verified: 'Not verified' and the number form (a tel field, labelled, required)", async () => {
    stubApi({ 'GET /account/phone': () => ({ body: none }) });
    renderRow();
    expect(await screen.findByText('Not verified')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Phone number' })).toBeInTheDocument();
    const field = phoneField();
    expect(field).toHaveAttribute('type', 'tel');
    expect(field).toHaveAttribute('inputmode', 'tel');
    expect(field).toHaveAttribute('autocomplete', 'tel');
    expect(field).toBeRequired();
    expect(button('Send code')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove number' })).toBeNull();
  });

  it("'Send code' sends the number, toasts, and shows the code form with its instructions, focused", async () => {
    const calls = stubApi({
      'GET /account/phone': () => ({ body: none }),
      'POST /account/phone': () => ({ status: 202, body: waiting }),
    });
    renderRow();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '201-555-0123');
    await user.keyboard('{Enter}');
    await findToast(PHONE_TEXT.codeSent, PHONE_TEXT.codeSentTo(NUMBER));
    const instructions = await screen.findByText((_, el) => el?.id === 'phone-code-instructions');
    expect(instructions).toHaveTextContent(`Enter the 6-digit code we sent to ${NUMBER}.`);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/account/phone', { phone: '201-555-0123' }],
    ]);
    const code = codeField();
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('maxlength', '6');
    expect(code).toHaveAccessibleDescription(`Enter the 6-digit code we sent to ${NUMBER}.`);
    for (const name of ['Verify', 'Send a new code', 'Change number']) expect(button(name)).toBeInTheDocument();
  });

  it("the server's refusal of the number shows under the field, announced, and focuses it", async () => {
    stubApi({
      'GET /account/phone': () => ({ body: none }),
      'POST /account/phone': refusal(409, 'phone_taken', PHONE_TAKEN),
    });
    renderRow();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '2015550123');
    await user.click(button('Send code'));
    expect(await screen.findByRole('alert')).toHaveTextContent(PHONE_TAKEN);
    expect(phoneField()).toHaveAttribute('aria-invalid', 'true');
    expect(phoneField()).toHaveAccessibleDescription(PHONE_TAKEN);
    await waitFor(() => expect(phoneField()).toHaveFocus());
  });

  it('checks the form before sending: an empty or letters-only number never reaches the server', async () => {
    const calls = stubApi({ 'GET /account/phone': () => ({ body: none }) });
    renderRow();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), 'call me');
    await user.click(button('Send code'));
    expect(await screen.findByRole('alert')).toHaveTextContent(PHONE_INVALID);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("'Verify' sends the code; the row then says 'Phone verified' with the number", async () => {
    const calls = stubApi({
      'GET /account/phone': () => ({ body: waiting }),
      'POST /account/phone/confirm': () => ({ body: verified }),
    });
    renderRow();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code'), '123456');
    await user.click(button('Verify'));
    await findToast(PHONE_TEXT.verified);
    expect(await screen.findByText('Phone verified')).toBeInTheDocument();
    expect(screen.getByText(NUMBER)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ code: '123456' }]);
    expect(button('Remove number')).toBeInTheDocument();
    expect(screen.queryByLabelText('Code')).toBeNull();
  });

  it('a wrong code shows the tries left under the field; a malformed one is caught before sending', async () => {
    const calls = stubApi({
      'GET /account/phone': () => ({ body: waiting }),
      'POST /account/phone/confirm': refusal(400, 'wrong_code', phoneCodeWrong(4)),
    });
    renderRow();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code'), '12ab');
    await user.click(button('Verify'));
    expect(await screen.findByRole('alert')).toHaveTextContent(PHONE_CODE_FORMAT);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.clear(codeField());
    await user.type(codeField(), '000000');
    await user.click(button('Verify'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(phoneCodeWrong(4)));
    expect(codeField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Phone verified')).toBeNull();
  });

  it("'Send a new code' sends to the same number; 'Change number' brings the number form back, and 'Cancel' the code", async () => {
    const calls = stubApi({
      'GET /account/phone': () => ({ body: waiting }),
      'POST /account/phone': () => ({ status: 202, body: waiting }),
    });
    renderRow();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send a new code' }));
    await findToast(PHONE_TEXT.codeSent);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ phone: NUMBER }]);
    await user.click(button('Change number'));
    await waitFor(() => expect(phoneField()).toHaveFocus());
    await user.click(button('Cancel'));
    expect(await screen.findByLabelText('Code')).toBeInTheDocument();
  });

  it("verified: 'Remove number' removes it and the row says 'Not verified'", async () => {
    const calls = stubApi({
      'GET /account/phone': () => ({ body: verified }),
      'DELETE /account/phone': () => ({ status: 204 }),
    });
    renderRow();
    const row = await screen.findByRole('listitem');
    expect(await within(row).findByText('Phone verified')).toBeInTheDocument();
    await userEvent.setup().click(button('Remove number'));
    await findToast(PHONE_TEXT.removed);
    expect(await screen.findByText('Not verified')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/account/phone']);
    expect(phoneField()).toBeInTheDocument();
  });
});

describe('PhoneVerificationRow labels', () => {
  it("'Phone number' and 'Code' each name exactly one control (the forms' own names do not contain them)", async () => {
    stubApi({ 'GET /account/phone': () => ({ body: none }) });
    const { unmount } = renderRow();
    expect(await screen.findAllByLabelText(/phone number/i)).toHaveLength(1);
    unmount();
    stubApi({ 'GET /account/phone': () => ({ body: waiting }) });
    renderRow();
    expect(await screen.findAllByLabelText(/code/i)).toHaveLength(1);
  });
});
