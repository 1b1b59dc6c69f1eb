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

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
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
