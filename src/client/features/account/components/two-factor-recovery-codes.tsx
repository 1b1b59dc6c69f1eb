import { useEffect, useRef } from 'react';
import { TWO_FACTOR_TOASTS } from '@shared/two-factor';
import { Button } from '@/components/ui/button';
import { toastError, toastSuccess } from '@/lib/toast';
import { saveFile } from '../api/data';

export const RECOVERY_CODES_FILE = 'ruralroute-recovery-codes.txt';

/** The codes as a person keeps them: one a line, with a word on what they are. */
function asText(codes: string[]) {
  return [
    'RuralRoute recovery codes',
    'Each code works once, when you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Freshly made recovery codes, shown this once: a list to write down, 'Download' (a .txt file), 'Copy' and 'Done'.
 * The heading takes focus when they appear, so a screen reader starts at what to do with them.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toastSuccess(TWO_FACTOR_TOASTS.copied);
    } catch {
      toastError('Error', 'Could not copy the codes. Download them or write them down instead.');
    }
  };

  return (
    <div className="space-y-4">
      <h3 ref={headingRef} tabIndex={-1} className="rounded-sm text-lg font-semibold focus:outline-none">
        Save your recovery codes
      </h3>
      <p>
        If you lose your phone, you can sign in with one of these codes instead of a code from the app. Each code works
        once. Keep them somewhere safe, for example printed on paper or in a password manager.
      </p>
      <p className="font-medium">This is the only time we show these codes.</p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-2 rounded-md border bg-muted/40 p-4 font-mono text-base sm:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="outline"
          onClick={() => saveFile(new Blob([asText(codes)], { type: 'text/plain' }), RECOVERY_CODES_FILE)}
        >
          Download
        </Button>
        <Button variant="outline" onClick={() => void copy()}>
          Copy
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
