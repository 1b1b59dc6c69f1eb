import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

let next = 0;
/**
 * A valid US number no other test of this process uses, in E.164 and as people type it: each number has its own
 * send counter in the database, which outlives a test.
 */
export function newUsNumber(): { e164: string; typed: string; national: string } {
  for (;;) {
    next += 1;
    const exchange = 200 + ((process.pid * 7 + next * 13) % 700);
    const line = String((Date.now() + next * 7919) % 10_000).padStart(4, '0');
    const parsed = parsePhoneNumberFromString(`+1201${exchange}${line}`);
    if (exchange !== 555 && parsed?.isValid() && parsed.country === 'US')
      return { e164: parsed.number, typed: `201-${exchange}-${line}`, national: parsed.formatNational() };
  }
}

export interface SmsFile {
  name: string;
  to: string;
  body: string;
  code: string | undefined;
}

/** Every SMS the file sender wrote under `dataDir/sms`, oldest first (by their Date line). */
export async function smsFiles(dataDir: string): Promise<SmsFile[]> {
  const dir = join(dataDir, 'sms');
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names
      .filter((n) => n.endsWith('.txt'))
      .map(async (name) => {
        const text = await readFile(join(dir, name), 'utf8');
        const [, to = '', date = ''] = text.match(/^To: (\S+)\nDate: (\S+)\n\n/) ?? [];
        const body = text.split('\n\n').slice(1).join('\n\n').trim();
        return { name, to, date, body, code: body.match(/Your RuralRoute code is (\d{6})\./)?.[1] };
      }),
  );
  return files.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
}

/** The code of the last SMS written to `e164`. */
export async function lastCodeTo(dataDir: string, e164: string): Promise<string> {
  const file = (await smsFiles(dataDir)).filter((f) => f.to === e164).at(-1);
  if (!file?.code) throw new Error(`no SMS with a code to ${e164}`);
  return file.code;
}
