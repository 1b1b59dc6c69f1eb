/**
 * On every API answer: whose session the request carried (the user's id, or SIGNED_OUT). The cookie is httpOnly, so
 * this is how a page learns that another person signed in on this browser (another tab) and drops what it shows.
 * Its own module, without zod: the API client is on every app page's first screen, and `./auth` builds its schemas
 * when it loads.
 */
export const SIGNED_IN_AS_HEADER = 'X-Signed-In-As';
export const SIGNED_OUT = 'none';
