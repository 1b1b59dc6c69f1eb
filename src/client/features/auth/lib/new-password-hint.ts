import { LIMITS } from '@shared/limits';

/** Shown under every field where a new password is chosen (sign-up, 'Choose a new password', Settings). */
export const NEW_PASSWORD_HINT = `At least ${LIMITS.passwordMin} characters, with an uppercase letter, a lowercase letter, a number and a special character.`;
