import { ID_PHOTO_MAX_BYTES, ID_PHOTO_MESSAGES, ID_PHOTO_TYPES, type IdPhotoKind } from '@shared/verification';

/** What the file inputs accept (and, on a phone, offer the camera for). */
export const ID_PHOTO_ACCEPT = ID_PHOTO_TYPES.join(',');

/**
 * A chosen photo checked as the server will, with its words: present, at most 10 MB, a JPEG, PNG or WebP (the
 * browser's type; the server checks the bytes themselves). Null when it may be sent.
 */
export function idPhotoError(kind: IdPhotoKind, file: File | null | undefined): string | null {
  if (!file || file.size === 0) return ID_PHOTO_MESSAGES.missing(kind);
  if (file.size > ID_PHOTO_MAX_BYTES) return ID_PHOTO_MESSAGES.size(kind);
  if (!(ID_PHOTO_TYPES as readonly string[]).includes(file.type)) return ID_PHOTO_MESSAGES.type(kind);
  return null;
}
