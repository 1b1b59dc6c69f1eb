/** The server's answer to a new password on its list of common ones (without zod: the sign-up form shows it). */
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Choose another.';
