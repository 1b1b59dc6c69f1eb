import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** One text message. */
export interface Sms {
  /** The recipient in E.164 form (+12015550123). */
  to: string;
  body: string;
  /**
   * Stable across retries of the same message: the file name without a provider (so a retry rewrites its file
   * rather than adding one), and the log's handle on it.
   */
  id: string;
}

export interface SmsSender {
  /** Sends one SMS; rejects when the provider refuses it (the job that sends it is then retried). */
  send(sms: Sms): Promise<void>;
  /** Where SMS go, for the start-up log: 'twilio' (with its API's origin) or the .txt folder. */
  readonly target: string;
}

/** A file name for the message: its id made safe. */
export const smsFileName = (id: string) => `${id.replace(/[^A-Za-z0-9-]+/g, '_').replace(/^_|_$/g, '')}.txt`;

/**
 * What a file holds: `To:` and `Date:` lines, a blank line, then the body as it would reach the phone. A test (or a
 * developer) finds the code in the body line.
 */
export const smsFileText = (sms: Sms, at: Date) => `To: ${sms.to}\nDate: ${at.toISOString()}\n\n${sms.body}\n`;

/** Without a provider: each SMS becomes `<dataDir>/sms/<id>.txt` and one log line, as mails become .eml files. */
export function createFileSmsSender(opts: { dataDir: string; log?: (line: string) => void }): SmsSender {
  const log = opts.log ?? ((line: string) => console.log(line));
  const dir = resolve(opts.dataDir, 'sms');
  return {
    target: dir,
    async send(sms) {
      const file = join(dir, smsFileName(sms.id));
      const text = smsFileText(sms, new Date());
      // The folder is made when a write finds it missing, as the mailer does.
      await writeFile(file, text).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true });
        await writeFile(file, text);
      });
      log(`[sms] to ${sms.to}: "${sms.body}" (${file})`);
    },
  };
}
