import type { SessionInfo } from '@shared/auth';
import type { Plan } from '@shared/plans';
import type { AdminReport, BlockedPerson } from '@shared/moderation';
import { ADA, SAM, uuid } from './factories';

/** `GET /auth/session` answering `person` signed in (`is_admin` and the plan as given). */
export function sessionOf(
  person: { id: string; full_name: string },
  isAdmin = false,
  plan: Plan = 'free',
): SessionInfo {
  return {
    user: {
      id: person.id,
      email: 'me@example.com',
      full_name: person.full_name,
      is_admin: isAdmin,
      email_verified: true,
      plan,
    },
    session: { aal: 'aal1', idle_expires_at: '2099-01-01T00:00:00.000Z', expires_at: '2099-01-01T00:00:00.000Z' },
  };
}

export function makeBlocked(person: { id: string; full_name: string }, at = '2026-05-03T12:00:00.000Z'): BlockedPerson {
  return { user: person, created_at: at };
}

/** Sam Lee's open report about Ada Field, from their booking. */
export function makeAdminReport(over: Partial<AdminReport> = {}): AdminReport {
  return {
    id: uuid(),
    reason: 'unsafe',
    details: 'Drove off with the parcel.\nWould not answer the phone.',
    status: 'open',
    created_at: '2026-05-03T12:00:00.000Z',
    reporter: SAM,
    reported: { ...ADA, suspended: false },
    booking: { id: uuid(), request_title: 'Feed sacks' },
    review: null,
    resolved_at: null,
    resolved_by: null,
    ...over,
  };
}
