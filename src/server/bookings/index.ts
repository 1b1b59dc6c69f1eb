// The bookings feature's public module: what other features may import (docs/decisions/015). Routes are
// HTTP-facing and wired by app.ts alone.
export { announce, BOOKING_NOT_FOUND, declineOffersBetween, declinePendingOffers, stateChanged } from './transitions';
export { readPhotoUpload, toStoredPhoto, type StoredPhoto } from './photo';
export { actionsFor, findMove, MOVES, type Move } from './lifecycle';
export { endBookingsOfLeavingUser } from './account-exit';
export { endHeldBooking, type HeldBooking } from './resolve';
