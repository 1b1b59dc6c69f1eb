// The SMS feature's public module (docs/verification.md, 'Phone'): one sender, the provider chosen by SMS_PROVIDER.
// app-background.ts makes it for the job handlers that text people.
import type { Env } from '../env';
import { createFileSmsSender, type SmsSender } from './sender';
import { createTwilioSmsSender } from './twilio';

export { createFileSmsSender, smsFileName, smsFileText, type Sms, type SmsSender } from './sender';
export { createTwilioSmsSender, type TwilioSettings } from './twilio';

/** The sender the settings ask for: Twilio (readEnv has checked its three settings), or .txt files under DATA_DIR/sms. */
export function createSmsSender(
  env: Pick<
    Env,
    'SMS_PROVIDER' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM' | 'TWILIO_API_BASE' | 'DATA_DIR'
  >,
  log?: (line: string) => void,
): SmsSender {
  if (env.SMS_PROVIDER === 'twilio')
    return createTwilioSmsSender({
      accountSid: env.TWILIO_ACCOUNT_SID!,
      authToken: env.TWILIO_AUTH_TOKEN!,
      from: env.TWILIO_FROM!,
      apiBase: env.TWILIO_API_BASE,
    });
  return createFileSmsSender({ dataDir: env.DATA_DIR, log });
}
