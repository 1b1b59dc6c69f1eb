import { useRef, useState } from 'react';
import {
  ID_REASON_REQUIRED,
  ID_REJECT_REASON_KEYS,
  ID_REJECT_REASONS,
  type AdminIdCheck,
  type IdRejectReason,
} from '@shared/verification';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/select';
import { formatInstant } from '@/lib/format';
import { useAdminIdChecks, useDecideIdCheck } from '../api/id-check';

export const APPROVE_BUTTON = 'Approve';
export const REJECT_BUTTON = 'Reject';
export const REASON_LABEL = 'Reason for rejecting';

/** The alt texts of a check's two photos (the e2e and screen readers find them by these). */
export const photoAlt = {
  front: (name: string) => `Photo of the ID sent by ${name}`,
  selfie: (name: string) => `Selfie sent by ${name}`,
};

function Photo({ src, alt }: { src: string; alt: string }) {
  return (
    <a
      href={src}
      target="_blank"
      rel="noreferrer"
      className="block rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
    >
      <img src={src} alt={alt} className="max-h-72 w-full rounded-md border bg-muted object-contain" />
      <span className="sr-only"> (opens the full size in a new tab)</span>
    </a>
  );
}

/**
 * One check waiting in the queue: the name it was sent under and the name now, when, earlier attempts, the two
 * photos, and the decision ('Approve', or a reason and 'Reject'). `onDecided` says where focus goes (the card
 * leaves the list).
 */
export function AdminIdCheckCard({ check, onDecided }: { check: AdminIdCheck; onDecided: () => void }) {
  const decide = useDecideIdCheck();
  const [reason, setReason] = useState<IdRejectReason | ''>('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reasonRef = useRef<HTMLSelectElement>(null);
  const headingId = `id-check-${check.id}`;
  const reasonId = `${headingId}-reason`;
  const renamed = check.current_name !== check.full_name;

  const send = (decision: 'approve' | 'reject') => {
    if (decision === 'reject' && !reason) {
      setReasonError(ID_REASON_REQUIRED);
      reasonRef.current?.focus();
      return;
    }
    decide.mutate(
      decision === 'approve' ? { id: check.id, decision } : { id: check.id, decision, reason: reason || undefined },
      { onSuccess: onDecided },
    );
  };

  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>{check.full_name}</CardTitle>
        <p className="text-sm text-muted-foreground">
          Sent <time dateTime={check.submitted_at}>{formatInstant(check.submitted_at)}</time>
          {check.earlier_attempts > 0
            ? ` · ${check.earlier_attempts} earlier ${check.earlier_attempts === 1 ? 'attempt' : 'attempts'}`
            : ' · First attempt'}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-3 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-muted-foreground">Name when sent</dt>
            <dd className="font-medium">{check.full_name}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Name now</dt>
            <dd className="font-medium">
              {check.current_name}
              {renamed ? (
                <span className="block text-sm font-normal text-destructive">
                  Changed since the check was sent: it cannot be approved.
                </span>
              ) : null}
            </dd>
          </div>
        </dl>
        <div className="grid gap-4 sm:grid-cols-2">
          <figure className="space-y-1">
            <Photo src={check.photos.front} alt={photoAlt.front(check.full_name)} />
            <figcaption className="text-sm text-muted-foreground">ID (front)</figcaption>
          </figure>
          <figure className="space-y-1">
            <Photo src={check.photos.selfie} alt={photoAlt.selfie(check.full_name)} />
            <figcaption className="text-sm text-muted-foreground">Selfie</figcaption>
          </figure>
        </div>
        <div className="flex flex-wrap items-end gap-3 border-t pt-4">
          <Button type="button" disabled={decide.isPending || renamed} onClick={() => send('approve')}>
            {APPROVE_BUTTON}
          </Button>
          <div className="min-w-56 flex-1 space-y-2">
            <Label htmlFor={reasonId}>{REASON_LABEL}</Label>
            <NativeSelect
              id={reasonId}
              ref={reasonRef}
              value={reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${reasonId}-error` : undefined}
              onChange={(e) => {
                setReason(e.currentTarget.value as IdRejectReason | '');
                setReasonError(null);
              }}
            >
              <option value="">Choose a reason</option>
              {ID_REJECT_REASON_KEYS.map((key) => (
                <option key={key} value={key}>
                  {ID_REJECT_REASONS[key]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="button" variant="destructive" disabled={decide.isPending} onClick={() => send('reject')}>
            {REJECT_BUTTON}
          </Button>
        </div>
        {reasonError ? (
          <p id={`${reasonId}-error`} role="alert" className="text-sm font-medium text-destructive">
            {reasonError}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * '/dashboard/admin/verifications' (admins only): ID checks waiting for a moderator, oldest first. A decided check
 * leaves the list; the photos are deleted with the decision.
 */
export function AdminVerificationsPage() {
  // A decided check leaves the list: focus goes to the list's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <div>
      <PageHeader
        title="ID checks"
        description="Compare each photo of an ID with the selfie and the name. The photos are deleted once you decide."
      />
      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        ID checks waiting, oldest first
      </h2>
      <PaginatedList
        query={useAdminIdChecks()}
        what="ID checks"
        empty="No ID checks waiting."
        renderItem={(check) => <AdminIdCheckCard check={check} onDecided={() => headingRef.current?.focus()} />}
      />
    </div>
  );
}
