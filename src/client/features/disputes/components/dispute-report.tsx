import type * as React from 'react';
import type { DisputeView } from '@shared/disputes';
import { formatInstant } from '@/lib/format';
import { DisputePhotos } from './photos-field';

/** One fact of a dispute, a term and its value (inside the report's list). */
export function DisputeItem({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="break-words font-medium">{children}</dd>
    </div>
  );
}

/** The response's framed box: its heading, then what it says (or that there is none yet). */
export function DisputeResponseBox({ heading, children }: { heading: string; children: React.ReactNode }) {
  return (
    <div className="space-y-2 rounded-md border p-3">
      <h3 className="font-semibold">{heading}</h3>
      {children}
    </div>
  );
}

/**
 * A dispute's report as the booking page and the moderators' queue both show it: its facts (`children`, each a
 * DisputeItem: what happened, who reported it and when, the item's value...), the details as written, the reporter's
 * photos, then the other person's response with its photos, or `noResponse` while there is none.
 */
export function DisputeReport({
  dispute,
  responder,
  noResponse = null,
  children,
}: {
  dispute: Pick<DisputeView, 'details' | 'photos' | 'reporter' | 'response'>;
  /** Who responded, as the heading names them ('Response from …'); the author's name unless given. */
  responder?: string;
  noResponse?: React.ReactNode;
  children: React.ReactNode;
}) {
  const { response } = dispute;
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2">{children}</dl>
      <div>
        <p className="text-sm text-muted-foreground">Details</p>
        {/* Plain text as written: line breaks kept, nothing interpreted. */}
        <p className="whitespace-pre-wrap break-words">{dispute.details}</p>
      </div>
      <DisputePhotos photos={dispute.photos} by={dispute.reporter.full_name} />
      {response ? (
        <DisputeResponseBox heading={`Response from ${responder ?? response.author.full_name}`}>
          <p className="text-sm text-muted-foreground">
            <time dateTime={response.created_at}>{formatInstant(response.created_at)}</time>
          </p>
          <p className="whitespace-pre-wrap break-words">{response.details}</p>
          <DisputePhotos photos={response.photos} by={response.author.full_name} />
        </DisputeResponseBox>
      ) : (
        noResponse
      )}
    </>
  );
}
