import type * as React from 'react';
import { z } from 'zod';
import { DISPUTE_PHOTOS_MAX, TOO_MANY_PHOTOS_MESSAGE } from '@shared/disputes';
import { LIFECYCLE_ERRORS, PHOTO_MAX_BYTES, PHOTO_TYPES } from '@shared/lifecycle';
import { Field, fieldAria } from '@/components/form/field';
import { Input } from '@/components/ui/input';

export const PHOTOS_HINT = `Optional. Up to ${DISPUTE_PHOTOS_MAX} photos: JPEG, PNG or WebP, up to 10 MB each.`;

const isPhoto = (file: File) => (PHOTO_TYPES as readonly string[]).includes(file.type) && file.size <= PHOTO_MAX_BYTES;

/**
 * The chosen photos, checked here as the server will (it re-checks the bytes themselves): at most three, each a
 * supported image. Output: the files, in the order chosen.
 */
export const photosSchema = z
  .custom<FileList | undefined>()
  .transform((files) => (files ? Array.from(files) : []))
  .refine((files) => files.length <= DISPUTE_PHOTOS_MAX, TOO_MANY_PHOTOS_MESSAGE)
  .refine((files) => files.every(isPhoto), LIFECYCLE_ERRORS.invalid_image.message);

/** 'Photos': a file input taking several images at once, with its hint or its error. */
export function PhotosField({
  id,
  error,
  ...input
}: { id: string; error?: string } & Omit<React.ComponentProps<'input'>, 'id' | 'type'>) {
  return (
    <Field id={id} label="Photos" error={error} hint={PHOTOS_HINT}>
      <Input
        {...fieldAria(id, error, PHOTOS_HINT)}
        type="file"
        multiple
        accept={PHOTO_TYPES.join(',')}
        className="h-auto file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium"
        {...input}
      />
    </Field>
  );
}

/** The photos of one side of a dispute, each a link to the full image (in the same tab: Back returns). */
export function DisputePhotos({ photos, by }: { photos: { id: string; url: string }[]; by: string }) {
  if (photos.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-3" aria-label={`Photos from ${by}`}>
      {photos.map((photo, i) => {
        const alt = `Photo ${i + 1} of ${photos.length} from ${by}`;
        return (
          <li key={photo.id}>
            <a
              href={photo.url}
              className="block rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
            >
              <img src={photo.url} alt={alt} loading="lazy" className="size-32 rounded-md border object-cover" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
