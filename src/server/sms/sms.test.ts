/**
 * The SMS seam. Twilio itself is out of reach here (no internet), so its API is a local HTTP server standing in for
 * it, reached by the real `twilio` SDK through its own transport setting (TWILIO_API_BASE -> the `httpClient`
 * option): the test asserts on the request the stand-in received (account path, From/To/Body, Basic auth). The file
 * sender writes real files.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env';
import { createSmsSender, smsFileName } from './index';

const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'twilio-auth-token-for-tests';

interface Received {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

/** Answers Messages create as Twilio does (201 with the message), or with Twilio's error for a refused number. */
function startTwilioStandIn() {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      received.push({ method: req.method!, path: req.url!, form, authorization: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      if (form.To === '+15005550001') {
        res.statusCode = 400;
        res.end(JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 }));
        return;
      }
      res.statusCode = 201;
      res.end(
        JSON.stringify({ sid: `SM${'f'.repeat(32)}`, account_sid: SID, to: form.To, from: form.From, body: form.Body }),
      );
    });
  });
  return {
    received,
    listen: () =>
      new Promise<string>((ok) =>
        server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

describe('SMS_PROVIDER=twilio (the official SDK, against a local stand-in for its API)', () => {
  const stand = startTwilioStandIn();
  let base = '';
  beforeAll(async () => {
    base = await stand.listen();
  });
  afterAll(() => stand.close());
  const sender = (from = '+15005550006') =>
    createSmsSender(
      readEnv({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: from,
        TWILIO_API_BASE: base,
      }),
    );

  it("posts one Messages create to the account's path, with From, To, Body and the account's Basic auth", async () => {
    const before = stand.received.length;
    await sender().send({ to: '+12015550123', body: 'Your RuralRoute code is 123456.', id: 'rr-phone-1' });
    const [req, ...more] = stand.received.slice(before);
    expect(more).toEqual([]);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req!.form).toEqual({ To: '+12015550123', From: '+15005550006', Body: 'Your RuralRoute code is 123456.' });
    expect(req!.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
  });

  it('sends through a Messaging Service when TWILIO_FROM is one (MG...)', async () => {
    const service = `MG${'a'.repeat(32)}`;
    const before = stand.received.length;
    await sender(service).send({ to: '+12015550123', body: 'Hi', id: 'rr-phone-2' });
    expect(stand.received.slice(before).map((r) => r.form)).toEqual([
      { To: '+12015550123', MessagingServiceSid: service, Body: 'Hi' },
    ]);
  });

  it("rejects when Twilio refuses the message (the job is retried), with Twilio's reason", async () => {
    await expect(sender().send({ to: '+15005550001', body: 'Hi', id: 'rr-phone-3' })).rejects.toThrow(
      /not a valid phone number/,
    );
  });
});

describe('without a provider (SMS_PROVIDER=file, the default)', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rr-sms-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('writes DATA_DIR/sms/<id>.txt (To, Date, then the body) and logs it; a retry rewrites the same file', async () => {
    const lines: string[] = [];
    const sms = createSmsSender(readEnv({ DATA_DIR: dataDir }), (line) => lines.push(line));
    expect(sms.target).toBe(join(dataDir, 'sms'));
    const body = 'Your RuralRoute code is 654321. It expires in 10 minutes.';
    await sms.send({ to: '+12015550123', body, id: 'rr-phone-7' });
    await sms.send({ to: '+12015550123', body, id: 'rr-phone-7' });
    expect(await readdir(join(dataDir, 'sms'))).toEqual(['rr-phone-7.txt']);
    const text = await readFile(join(dataDir, 'sms', 'rr-phone-7.txt'), 'utf8');
    expect(text).toMatch(/^To: \+12015550123\nDate: \d{4}-\d\d-\d\dT[\d:.]+Z\n\nYour RuralRoute code is 654321\. /);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`[sms] to +12015550123: "${body}" (${join(dataDir, 'sms', 'rr-phone-7.txt')})`);
    expect(smsFileName('../x y')).toBe('x_y.txt');
  });
});

describe('the settings', () => {
  it('SMS_PROVIDER=twilio without its settings stops the server with a clear message', () => {
    expect(() => readEnv({ SMS_PROVIDER: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID is required when SMS_PROVIDER=twilio[\s\S]*TWILIO_AUTH_TOKEN is required[\s\S]*TWILIO_FROM is required/,
    );
    expect(() =>
      readEnv({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'SK123',
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '5551234',
      }),
    ).toThrow(/TWILIO_ACCOUNT_SID must be an Account SID[\s\S]*TWILIO_FROM must be the sending number in E\.164/);
    expect(() => readEnv({ SMS_PROVIDER: 'pigeon' })).toThrow(/SMS_PROVIDER/);
    expect(() => readEnv({ TWILIO_API_BASE: 'http://127.0.0.1:1/2010-04-01' })).toThrow(
      /TWILIO_API_BASE must be an http:\/\/ or https:\/\/ address without a path/,
    );
    expect(readEnv({}).SMS_PROVIDER).toBe('file');
  });
});
