import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseMail } from '../src/server/test/smtp-sink';

export { E2E_DATA_DIR } from './shared-server';

/**
 * Every mail under `dataDir`/mail to `to` that `matches`, newest first (file names follow Message-IDs, not time).
 */
export function mailsTo(dataDir: string, to: string, matches: (mail: ReturnType<typeof parseMail>) => boolean) {
  const dir = join(dataDir, 'mail');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((f) => ({ at: statSync(join(dir, f)).mtimeMs, mail: parseMail(readFileSync(join(dir, f), 'utf8')) }))
    .filter(({ mail }) => mail.headers.to?.includes(to) && matches(mail))
    .sort((a, b) => b.at - a.at)
    .map(({ mail }) => mail);
}

/** Every mail to `to` whose subject has `subject`, newest first. */
export const mailsWithSubject = (dataDir: string, to: string, subject: string) =>
  mailsTo(dataDir, to, (mail) => mail.headers.subject?.includes(subject) === true);
