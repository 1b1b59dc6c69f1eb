import sharp from 'sharp';
import { ID_PHOTO_MAX_BYTES, ID_PHOTO_MESSAGES, type IdPhotoKind } from '../../shared/verification';
import { DomainError } from '../core/domain-error';

/** Largest picture decoded (as bookings/photo.ts): above any phone camera, far below a decompression bomb. */
const MAX_PIXELS = 50_000_000;
/** The longest side kept: an ID's small print stays readable, a 50 MP original does not sit in the database. */
export const ID_PHOTO_MAX_SIDE = 2400;
const ENCODE_TIMEOUT_SECONDS = 20;

type Format = 'jpeg' | 'png' | 'webp';

/** The formats accepted, told by their first bytes: neither a declared type nor a file name is believed. */
export function sniff(bytes: Buffer): Format | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return null;
}

export interface IdPhotoUpload {
  kind: IdPhotoKind;
  bytes: Buffer;
  format: Format;
}

const invalid = (message: string) => new DomainError('validation_error', message);

/**
 * The cheap checks of one form field: a file (not a text field, not the empty part of an input left empty), at most
 * ID_PHOTO_MAX_BYTES (413 over it), whose first bytes are a JPEG, PNG or WebP.
 */
export async function readIdPhoto(kind: IdPhotoKind, value: unknown): Promise<IdPhotoUpload> {
  if (Array.isArray(value)) value = value[0];
  if (!(value instanceof File) || value.size === 0) throw invalid(ID_PHOTO_MESSAGES.missing(kind));
  if (value.size > ID_PHOTO_MAX_BYTES) throw new DomainError('payload_too_large', ID_PHOTO_MESSAGES.size(kind));
  const bytes = Buffer.from(await value.arrayBuffer());
  const format = sniff(bytes);
  if (!format) throw new DomainError('invalid_image', ID_PHOTO_MESSAGES.type(kind));
  return { kind, bytes, format };
}

/**
 * Decodes the photo, turns it upright, fits it within ID_PHOTO_MAX_SIDE and re-encodes it as a JPEG (quality 90).
 * sharp writes no metadata unless asked (no withMetadata/keepExif here): EXIF with the phone's GPS position, its
 * make and the time, XMP and ICC are all dropped before the photo is encrypted. A file that does not decode as the
 * format its bytes announce, is truncated, or is too large in pixels is `invalid_image`.
 */
export async function reencodeIdPhoto({ kind, bytes, format }: IdPhotoUpload): Promise<Buffer> {
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS, autoOrient: true });
    const meta = await image.metadata();
    if (meta.format !== format) throw new Error('format mismatch');
    return await image
      .resize({ width: ID_PHOTO_MAX_SIDE, height: ID_PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      // A JPEG has no transparency: a transparent PNG or WebP is laid on white, not on black.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
      .toBuffer();
  } catch {
    // libvips' reasons (unsupported, truncated, over the pixel limit) are the file's fault, not the server's.
    throw new DomainError('invalid_image', ID_PHOTO_MESSAGES.type(kind));
  }
}
