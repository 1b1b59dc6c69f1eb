import twilio from 'twilio';
import type { SmsSender } from './sender';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A Twilio number in E.164 form, or a Messaging Service SID (MG...), which picks the number itself. */
  from: string;
  /**
   * Tests only: the origin of a local stand-in for https://api.twilio.com. The SDK has no host setting; its own
   * extension point for the transport (the `httpClient` option, a RequestClient) sends each call there instead,
   * with the same path, form body and Basic auth.
   */
  apiBase?: string;
}

/** The SDK's RequestClient with every call's origin replaced by `base` (path and query kept). */
function standInClient(base: URL, timeout: number) {
  const client = new twilio.RequestClient({ timeout });
  const request = client.request.bind(client);
  client.request = (opts) => {
    const uri = new URL(opts.uri);
    uri.protocol = base.protocol;
    uri.host = base.host;
    return request({ ...opts, uri: uri.href });
  };
  return client;
}

/**
 * SMS_PROVIDER=twilio: each SMS is one Messages create call of the official SDK (POST
 * /2010-04-01/Accounts/{sid}/Messages.json). A refusal (a bad number, an account problem, a network failure) rejects,
 * so the job is retried with backoff and kept when it finally fails.
 */
export function createTwilioSmsSender(settings: TwilioSettings): SmsSender {
  const timeout = 20_000;
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  const client = twilio(settings.accountSid, settings.authToken, {
    timeout,
    ...(base ? { httpClient: standInClient(base, timeout) } : {}),
  });
  const sender = settings.from.startsWith('MG') ? { messagingServiceSid: settings.from } : { from: settings.from };
  return {
    target: `twilio (${base ? base.origin : 'https://api.twilio.com'})`,
    async send(sms) {
      await client.messages.create({ to: sms.to, body: sms.body, ...sender });
    },
  };
}
