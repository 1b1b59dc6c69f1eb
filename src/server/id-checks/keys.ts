import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { appSecrets } from '../db/schema';

/** The app_secrets row of the key made when ID_DOCUMENTS_KEY is unset. */
export const ID_DOCUMENTS_SECRET = 'id_documents';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a photo row stores besides its kind and type: the key's id (never the key), the IV, the tag, the bytes. */
export interface SealedPhoto {
  keyId: string;
  iv: Buffer;
  authTag: Buffer;
  ciphertext: Buffer;
}

/** A photo that cannot be read: its key is not known here, or the bytes, IV, tag or key do not match. */
export class IdDocumentDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdDocumentDecryptError';
  }
}

/**
 * A key's id: a fingerprint (SHA-256 of a label and the key, 16 hex digits). It tells keys apart for rotation and
 * reveals nothing of the key; the same key has the same id on every instance.
 */
export const keyIdOf = (key: Buffer) =>
  `k1-${createHash('sha256').update('ruralroute id_documents key\0').update(key).digest('hex').slice(0, 16)}`;

/**
 * The bytes a photo's tag also covers (GCM's additional data): its check and kind. A row's ciphertext copied onto
 * another check or kind fails to decrypt, as altered bytes do.
 */
const aadOf = (checkId: string, kind: string) => Buffer.from(`id_documents:${checkId}:${kind}`);

export interface IdDocumentKeyOptions {
  /** ID_DOCUMENTS_KEY: new photos use it. Unset: the key kept in app_secrets (made by the first instance needing it). */
  current?: Buffer;
  /** ID_DOCUMENTS_OLD_KEYS: still read, never used for new photos. */
  old?: Buffer[];
}

/**
 * The ID photos' keys and their AES-256-GCM: a random 12-byte IV per photo, the 16-byte tag stored beside it.
 * Without ID_DOCUMENTS_KEY the key is random, made once and shared through app_secrets (insert ... on conflict do
 * nothing, then read: whichever instance inserted first, every instance reads the same row), then kept in memory.
 * The database key stays readable after ID_DOCUMENTS_KEY is set, so photos sent before still open.
 */
export function createIdDocumentKeys(db: Db, opts: IdDocumentKeyOptions = {}) {
  const known = new Map<string, Buffer>();
  for (const key of [...(opts.old ?? []), ...(opts.current ? [opts.current] : [])]) known.set(keyIdOf(key), key);
  let stored: Promise<Buffer> | null = null;

  async function readStored(): Promise<Buffer | null> {
    const [row] = await db
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, ID_DOCUMENTS_SECRET));
    return row ? Buffer.from(row.value, 'base64') : null;
  }

  async function makeStored(): Promise<Buffer> {
    await db
      .insert(appSecrets)
      .values({ name: ID_DOCUMENTS_SECRET, value: randomBytes(32).toString('base64') })
      .onConflictDoNothing({ target: appSecrets.name });
    const key = await readStored();
    if (!key || key.length !== 32) throw new Error('the ID photos key was not stored');
    return key;
  }

  /** The database key, made on first use; a failed load is tried again by the next caller. */
  function storedKey(): Promise<Buffer> {
    stored ??= makeStored().catch((err: unknown) => {
      stored = null;
      throw err;
    });
    return stored;
  }

  async function current(): Promise<{ id: string; key: Buffer }> {
    const key = opts.current ?? (await storedKey());
    return { id: keyIdOf(key), key };
  }

  /** The key named `keyId`: a configured one, or the database's (read, never made, when it is not loaded yet). */
  async function find(keyId: string): Promise<Buffer | null> {
    const configured = known.get(keyId);
    if (configured) return configured;
    const key = stored ? await stored : await readStored();
    return key && keyIdOf(key) === keyId ? key : null;
  }

  return {
    /**
     * The sealer of new photos, with the current key loaded (from the database, the first time, without a key set):
     * called before a transaction opens, so the encryption inside it needs no other connection.
     */
    async sealer(): Promise<(checkId: string, kind: string, plain: Buffer) => SealedPhoto> {
      const { id, key } = await current();
      return (checkId, kind, plain) => encrypt(id, key, checkId, kind, plain);
    },

    /** The photo's bytes, or IdDocumentDecryptError: an unknown key, a wrong key, altered bytes, IV or tag. */
    async open(checkId: string, kind: string, sealed: SealedPhoto): Promise<Buffer> {
      const key = await find(sealed.keyId);
      if (!key)
        throw new IdDocumentDecryptError(
          `ID photo key ${sealed.keyId} is not known here: set ID_DOCUMENTS_KEY or ID_DOCUMENTS_OLD_KEYS to the key it was encrypted with`,
        );
      return decrypt(key, checkId, kind, sealed);
    },

    /** The id new photos get (what the current key is called). */
    currentKeyId: async () => (await current()).id,
  };
}

/** AES-256-GCM encryption of one photo with `key` (named `keyId`), under a fresh random IV. */
function encrypt(keyId: string, key: Buffer, checkId: string, kind: string, plain: Buffer): SealedPhoto {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadOf(checkId, kind));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId, iv, authTag: cipher.getAuthTag(), ciphertext };
}

/** AES-256-GCM decryption of one photo with `key`; a mismatch of anything is IdDocumentDecryptError, never bytes. */
export function decrypt(key: Buffer, checkId: string, kind: string, sealed: SealedPhoto): Buffer {
  if (sealed.iv.length !== IV_BYTES || sealed.authTag.length !== TAG_BYTES)
    throw new IdDocumentDecryptError('ID photo could not be decrypted: its IV or tag has the wrong length');
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(checkId, kind));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new IdDocumentDecryptError('ID photo could not be decrypted: wrong key, or the stored data was altered');
  }
}

export type IdDocumentKeys = ReturnType<typeof createIdDocumentKeys>;
