import type { BookingAction, BookingEventType, BookingRole } from '../../shared/lifecycle';
import type { BookingStatus, RequestStatus } from '../../shared/statuses';

/**
 * The booking lifecycle's one table of allowed moves (shared/design.md "Booking lifecycle",
 * docs/decisions/016-booking-lifecycle.md). What a person may do now (`actions` on the booking page) and what the
 * server lets through (transitions.ts) are both read from here, so the two cannot disagree.
 *
 *   booking:  pending --choose--> confirmed --complete (code) | receive--> completed
 *                |  \--decline / another offer chosen / request withdrawn--> declined
 *                \--withdraw (driver)--> cancelled        confirmed --cancel (either, reason)--> cancelled
 *   request:  open --a booking confirmed--> matched --completed--> completed;  matched --booking cancelled--> open
 */
export interface Move {
  action: BookingAction;
  /** Who may take it: the booking's driver or the request's owner. */
  role: BookingRole;
  from: BookingStatus;
  to: BookingStatus;
  /** The timeline event the move appends. */
  event: BookingEventType;
  /** The request must be in `from` (it is locked FOR UPDATE first) and moves to `to` in the same transaction. */
  request?: { from: RequestStatus; to: RequestStatus };
  /** choose: every other pending offer on the request is declined (event `other_chosen`, no actor). */
  declinesOtherOffers?: true;
  /** pickup: allowed once (picked_up_at still empty); the status stays. */
  once?: 'picked_up';
  /** complete: needs the requester's delivery code. */
  needsCode?: true;
  /** cancel: needs a reason (and takes optional details). */
  needsReason?: true;
}

const matchedToOpen = { from: 'matched', to: 'open' } as const;
const matchedToCompleted = { from: 'matched', to: 'completed' } as const;

export const MOVES: readonly Move[] = [
  {
    action: 'choose',
    role: 'requester',
    from: 'pending',
    to: 'confirmed',
    event: 'chosen',
    request: { from: 'open', to: 'matched' },
    declinesOtherOffers: true,
  },
  { action: 'decline', role: 'requester', from: 'pending', to: 'declined', event: 'declined' },
  { action: 'withdraw', role: 'driver', from: 'pending', to: 'cancelled', event: 'withdrawn' },
  {
    action: 'cancel',
    role: 'driver',
    from: 'confirmed',
    to: 'cancelled',
    event: 'cancelled',
    request: matchedToOpen,
    needsReason: true,
  },
  {
    action: 'cancel',
    role: 'requester',
    from: 'confirmed',
    to: 'cancelled',
    event: 'cancelled',
    request: matchedToOpen,
    needsReason: true,
  },
  { action: 'pickup', role: 'driver', from: 'confirmed', to: 'confirmed', event: 'picked_up', once: 'picked_up' },
  {
    action: 'complete',
    role: 'driver',
    from: 'confirmed',
    to: 'completed',
    event: 'completed',
    request: matchedToCompleted,
    needsCode: true,
  },
  {
    action: 'receive',
    role: 'requester',
    from: 'confirmed',
    to: 'completed',
    event: 'received',
    request: matchedToCompleted,
  },
];

/**
 * Moves nobody takes directly: consequences of a move on the request, applied by the system to every pending
 * offer of it. `other_chosen` follows choose; `request_withdrawn` follows deleting the request.
 */
export const OFFER_DECLINED_BY = {
  other_chosen: { from: 'pending', to: 'declined' },
  request_withdrawn: { from: 'pending', to: 'declined' },
  // A block between the two people: the blocker's decline (declineOffersBetween).
  declined: { from: 'pending', to: 'declined' },
} as const satisfies Partial<Record<BookingEventType, { from: BookingStatus; to: BookingStatus }>>;

/** What a move needs to know about a booking, read in one query. */
export interface BookingState {
  status: BookingStatus;
  requestStatus: RequestStatus;
  pickedUpAt: Date | null;
  /** An open dispute holds the booking's money (issue 36): no move out of 'confirmed' until it is decided. */
  onHold: boolean;
}

/** The move `role` may make with `action` from this state, if any. */
export function findMove(action: BookingAction, role: BookingRole, state: BookingState): Move | undefined {
  return MOVES.find((m) => m.action === action && m.role === role && allows(m, state));
}

function allows(move: Move, state: BookingState): boolean {
  if (move.from !== state.status) return false;
  if (move.request && move.request.from !== state.requestStatus) return false;
  if (move.once === 'picked_up' && state.pickedUpAt !== null) return false;
  if (state.onHold && move.from === 'confirmed') return false;
  return true;
}

/** The actions `role` may take now, in the table's order (the booking page shows exactly these). */
export function actionsFor(role: BookingRole, state: BookingState): BookingAction[] {
  return MOVES.filter((m) => m.role === role && allows(m, state)).map((m) => m.action);
}
