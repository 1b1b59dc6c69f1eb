import {
  formatRetryAt,
  ID_WAITING,
  idRejectedState,
  VERIFICATION_LABELS,
  type IdCheckState,
} from '@shared/verification';
import { useIdCheckState } from '../api/id-check';
import { IdCheckDialog } from './id-check-dialog';
import { VerificationRow } from './verification-row';

export const ID_NOT_CHECKED = 'Not checked yet';

/** The row's state in words: checked, waiting, not approved (and when to try again), or nothing yet. */
export function idStateText(s: IdCheckState): string {
  if (s.checked) return VERIFICATION_LABELS.id;
  if (s.status === 'pending') return ID_WAITING;
  const retry = s.next_attempt_at ? formatRetryAt(s.next_attempt_at) : null;
  if (s.status === 'rejected') return idRejectedState(s.reason ?? 'Other', retry);
  return retry ? `${ID_NOT_CHECKED}. You can send one on ${retry}.` : ID_NOT_CHECKED;
}

/**
 * 'ID': a photo of a government ID and a selfie, checked by a moderator. 'Verify your ID' opens the form when a new
 * check may be sent now (nothing waiting, not checked, no wait after a rejection or the attempts' limit).
 */
export function IdVerificationRow() {
  const query = useIdCheckState();
  const s = query.data;
  if (!s) {
    return (
      <VerificationRow title="ID" done={false} state={query.isError ? 'Could not load your ID check.' : 'Loading...'} />
    );
  }
  const maySend = !s.checked && s.status !== 'pending' && !s.next_attempt_at;
  return (
    <VerificationRow title="ID" done={s.checked} state={idStateText(s)}>
      {maySend ? <IdCheckDialog /> : null}
    </VerificationRow>
  );
}
