import { hash, verify } from '@node-rs/argon2';

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  // @node-rs/argon2 defaults to argon2id; the cost comes from configuration.
  return hash(password, cost);
}

let verifications = 0;

/** How many argon2 verifications this process has run: lets tests prove that refused attempts never hash. */
export function passwordVerifications(): number {
  return verifications;
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  verifications += 1;
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/**
 * A hash to verify against when the email is unknown, so an unknown email costs the same time as a wrong
 * password and accounts cannot be discovered by timing.
 */
export function decoyHasher(cost: PasswordCost): () => Promise<string> {
  let decoy: Promise<string> | undefined;
  return () => (decoy ??= hashPassword('decoy-password-never-matches', cost));
}
