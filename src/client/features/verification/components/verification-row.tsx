import { CheckCircle2 } from 'lucide-react';
import type * as React from 'react';

/** One check of Settings' 'Verification': its name, its state (a check mark when done) and its action. */
export function VerificationRow({
  title,
  done,
  state,
  children,
}: {
  title: string;
  done: boolean;
  /** 'Email verified', 'Not confirmed yet', 'Waiting for a moderator' ... */
  state: string;
  /** The action (a button, a form), if any. */
  children?: React.ReactNode;
}) {
  return (
    <li className="space-y-2 py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">{title}</h3>
        <p className="flex items-center gap-1 text-sm">
          {done ? <CheckCircle2 aria-hidden className="h-4 w-4 text-green-700" /> : null}
          <span className={done ? 'text-green-800' : 'text-muted-foreground'}>{state}</span>
        </p>
      </div>
      {children}
    </li>
  );
}
