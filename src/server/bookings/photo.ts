import sharp from 'sharp';
import { LIFECYCLE_ERRORS, PHOTO_MAX_BYTES } from '../../shared/lifecycle';
import { DomainError } from '../core/domain-error';
import { PHOTO_MAX_SIDE } from '../db/schema';

/**
 * Largest picture decoded, in pixels: above any phone camera's default output (12-50 MP), far below what would let
 * a small, highly compressed file (a decompression bomb) make the decoder allocate gigabytes.
 */
export const PHOTO_MAX_PIXELS = 50_000_000;
const ENCODE_TIMEOUT_SECONDS = 20;

export interface StoredPhoto {
  image: Buffer;
  width: number;
  height: number;
}

export const invalidImage = () => new DomainError('invalid_image', LIFECYCLE_ERRORS.invalid_image.message);

/** The formats accepted, told by their first bytes: neither a declared type nor a file name is believed. */
function sniff(bytes: Buffer): 'jpeg' | 'png' | 'webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return null;
}

export interface PhotoUpload {
  bytes: Buffer;
  format: 'jpeg' | 'png' | 'webp';
}

/**
 * The cheap checks of what the form sent as `photo`, made before the code is even compared: a file of at most
 * 10 MB whose first bytes are a JPEG, PNG or WebP, or nothing (absent, or the empty part a browser sends for a
 * file input left empty: a file named "", or an empty field). Anything else is `invalid_image`.
 */
export async function readPhotoUpload(value: unknown): Promise<PhotoUpload | null> {
  if (value === undefined || value === '') return null;
  if (!(value instanceof File)) throw invalidImage();
  if (value.size === 0 && value.name === '') return null;
  if (value.size === 0 || value.size > PHOTO_MAX_BYTES) throw invalidImage();
  const bytes = Buffer.from(await value.arrayBuffer());
  const format = sniff(bytes);
  if (!format) throw invalidImage();
  return { bytes, format };
}

/**
 * Decodes the upload, turns it upright, fits it within 1600 px and re-encodes it as WebP. sharp writes no metadata
 * unless asked (no withMetadata/keepExif here), so EXIF (GPS included), ICC and XMP are all dropped. A file that
 * does not decode as the format its bytes announce, is truncated, or has more than PHOTO_MAX_PIXELS is
 * `invalid_image`.
 */
export async function toStoredPhoto({ bytes, format }: PhotoUpload): Promise<StoredPhoto> {
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS, autoOrient: true });
    const meta = await image.metadata();
    if (meta.format !== format) throw invalidImage();
    const { data, info } = await image
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    if (data.length > PHOTO_MAX_BYTES) throw invalidImage();
    return { image: data, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // libvips' reasons (unsupported, truncated, over the pixel limit) are the file's fault, not the server's.
    throw invalidImage();
  }
}
