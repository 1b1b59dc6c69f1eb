import { CLAIM_REASONS, type DisputeKind, type DisputeReason } from '../../shared/disputes';
import type { BookingRole } from '../../shared/lifecycle';
import type { PaymentState } from '../../shared/payments';
import type { BookingStatus } from '../../shared/statuses';

/** What decides whether a problem may be reported now, and what kind of dispute it opens. */
export interface ReportState {
  status: BookingStatus;
  pickedUp: boolean;
  /** Completed no more than DISPUTE_WINDOW_HOURS ago (the database's clock decides). */
  inWindow: boolean;
  /** The booking's payment, or null for an unpaid booking. */
  paymentState: PaymentState | null;
  /** An open dispute already exists for the booking. */
  openDispute: boolean;
}

/**
 * The dispute a report opens (decision 032), or null when none may be opened: only a paid booking, from 'Mark as
 * picked up' while its money is held ('hold'), or within 48 hours of completion (a requester's 'Damaged' or 'Not
 * delivered' is a Delivery Guarantee 'claim'; anything else a 'report' that moves no money). One open at a time.
 */
export function disputeKindFor(state: ReportState, role: BookingRole, reason: DisputeReason): DisputeKind | null {
  if (state.openDispute || state.paymentState === null) return null;
  if (state.status === 'confirmed' && state.pickedUp && state.paymentState === 'held') return 'hold';
  if (state.status === 'completed' && state.inWindow && state.paymentState !== 'held')
    return role === 'requester' && CLAIM_REASONS.includes(reason) ? 'claim' : 'report';
  return null;
}

/** Whether 'Report a problem' is offered now (any reason would open a dispute). */
export const mayReport = (state: ReportState, role: BookingRole) => disputeKindFor(state, role, 'other') !== null;
