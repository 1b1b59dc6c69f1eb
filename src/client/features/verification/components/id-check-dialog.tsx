import { useRef, useState } from 'react';
import {
  ID_CONSENT,
  ID_CONSENT_REQUIRED,
  ID_PHOTO_FIELDS,
  ID_PHOTO_KINDS,
  ID_PHOTO_MESSAGES,
  type IdPhotoKind,
} from '@shared/verification';
import { Field, fieldAria } from '@/components/form/field';
import { sendThenClose } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-client';
import { useSendIdCheck } from '../api/id-check';
import { ID_PHOTO_ACCEPT, idPhotoError } from '../lib/id-photo';

export const VERIFY_ID_BUTTON = 'Verify your ID';
export const SEND_ID_BUTTON = 'Send for checking';

type FieldName = IdPhotoKind | 'consent';
type Errors = Partial<Record<FieldName, string>>;

const HINTS: Record<IdPhotoKind, string> = {
  front: 'A passport, driver’s license or state ID, all four corners in view. JPEG, PNG or WebP, up to 10 MB.',
  selfie: 'Your face, clearly lit, without sunglasses. JPEG, PNG or WebP, up to 10 MB.',
};
/** On a phone, the camera that fits: the back one for the ID, the front one for the selfie. */
const fieldId = (name: FieldName) => `id-check-${name}`;

/** Which field a server refusal is about, by its words (the server's messages are the ones this form shows). */
function fieldOf(err: unknown): FieldName | null {
  if (!(err instanceof ApiError)) return null;
  if (err.message === ID_CONSENT_REQUIRED) return 'consent';
  for (const kind of ID_PHOTO_KINDS)
    if (
      [ID_PHOTO_MESSAGES.missing(kind), ID_PHOTO_MESSAGES.type(kind), ID_PHOTO_MESSAGES.size(kind)].includes(
        err.message,
      )
    )
      return kind;
  return null;
}

/**
 * 'Verify your ID': a dialog with the photo of the ID (front), a selfie, and the consent; 'Send for checking'. Each
 * field is checked here as the server checks it, with the same words; the first wrong one gets the focus.
 */
export function IdCheckDialog() {
  const [open, setOpen] = useState(false);
  const send = useSendIdCheck();
  const [files, setFiles] = useState<Partial<Record<IdPhotoKind, File | null>>>({});
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const refs = useRef<Partial<Record<FieldName, HTMLElement | null>>>({});

  const reset = () => {
    setFiles({});
    setConsent(false);
    setErrors({});
  };

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    for (const kind of ID_PHOTO_KINDS) {
      const error = idPhotoError(kind, files[kind]);
      if (error) found[kind] = error;
    }
    if (!consent) found.consent = ID_CONSENT_REQUIRED;
    setErrors(found);
    const first = (['front', 'selfie', 'consent'] as const).find((name) => found[name]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    void sendThenClose(
      () => send.mutateAsync({ front: files.front!, selfie: files.selfie! }),
      () => {
        setOpen(false);
        reset();
      },
      (err) => {
        const field = fieldOf(err);
        if (!field || !(err instanceof ApiError)) return;
        setErrors({ [field]: err.message });
        refs.current[field]?.focus();
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          {VERIFY_ID_BUTTON}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{VERIFY_ID_BUTTON}</DialogTitle>
          <DialogDescription>
            A moderator compares the photo of your ID with your selfie and your name. Your profile then shows ‘ID
            checked’. Nobody else sees the photos.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="space-y-4" onSubmit={submit} aria-label={VERIFY_ID_BUTTON}>
          {ID_PHOTO_KINDS.map((kind) => (
            <Field key={kind} id={fieldId(kind)} label={ID_PHOTO_FIELDS[kind]} error={errors[kind]} hint={HINTS[kind]}>
              <Input
                {...fieldAria(fieldId(kind), errors[kind], HINTS[kind])}
                ref={(el) => {
                  refs.current[kind] = el;
                }}
                type="file"
                accept={ID_PHOTO_ACCEPT}
                aria-required="true"
                className="h-auto file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium"
                onChange={(e) => {
                  const file = e.currentTarget.files?.[0] ?? null;
                  setFiles((f) => ({ ...f, [kind]: file }));
                  setErrors((errs) => ({
                    ...errs,
                    [kind]: file ? (idPhotoError(kind, file) ?? undefined) : undefined,
                  }));
                }}
              />
            </Field>
          ))}
          <div className="space-y-2">
            <div className="flex items-start gap-3">
              <Checkbox
                id={fieldId('consent')}
                ref={(el) => {
                  refs.current.consent = el;
                }}
                checked={consent}
                aria-required="true"
                aria-invalid={errors.consent ? true : undefined}
                aria-describedby={errors.consent ? `${fieldId('consent')}-error` : undefined}
                onCheckedChange={(checked) => {
                  setConsent(checked === true);
                  if (checked === true) setErrors((errs) => ({ ...errs, consent: undefined }));
                }}
              />
              <Label htmlFor={fieldId('consent')} className="font-normal leading-snug">
                {ID_CONSENT}
              </Label>
            </div>
            {errors.consent ? (
              <p id={`${fieldId('consent')}-error`} role="alert" className="text-sm font-medium text-destructive">
                {errors.consent}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending...' : SEND_ID_BUTTON}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
