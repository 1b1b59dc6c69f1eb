// The moderation feature's public module (docs/decisions/015): blocks between two people, checked by messaging,
// offers and Browse. Routes are wired by app.ts.
export { blockedWith, isBlockedBetween } from './blocks';
