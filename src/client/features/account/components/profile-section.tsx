import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ABOUT_MAX, profileInputSchema, type AccountProfile, type ProfileInput } from '@shared/account';
import { NAME_CHANGE_UNCHECKS_ID } from '@shared/verification';
import { Field, fieldAria } from '@/components/form/field';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Input, Textarea } from '@/components/ui/input';
import { useIdCheckState } from '@/features/verification';
import { toastFirstError } from '@/lib/form-errors';
import { toastSubmitError } from '@/lib/toast';
import { useAccountProfile, useUpdateProfile } from '../api/account';
import { SectionQuery } from './section-query';

const ORDER = ['full_name', 'about'] as const;
const resolver = zodResolver(profileInputSchema);

/** '480 characters left', or how many too many once past the limit. */
export function charactersLeft(length: number) {
  const left = ABOUT_MAX - length;
  if (left >= 0) return `${left} ${left === 1 ? 'character' : 'characters'} left`;
  return `${-left} ${left === -1 ? 'character' : 'characters'} too many`;
}

type Saved = z.output<typeof profileInputSchema>;

const valuesOf = (profile: AccountProfile): ProfileInput => ({
  full_name: profile.full_name,
  about: profile.about ?? '',
});

function ProfileForm({ profile }: { profile: AccountProfile }) {
  const update = useUpdateProfile();
  const form = useForm<ProfileInput, unknown, Saved>({
    resolver,
    defaultValues: valuesOf(profile),
    shouldFocusError: false,
  });
  const { errors } = form.formState;
  const about = useWatch({ control: form.control, name: 'about' });
  const name = useWatch({ control: form.control, name: 'full_name' });
  // 'ID checked' holds for the name it was checked under: said before a new one is saved (issue 37).
  const idChecked = useIdCheckState().data?.checked === true;
  const unchecksId = idChecked && (name ?? '').trim() !== profile.full_name;
  const counter = charactersLeft((about ?? '').length);
  const nameError = errors.full_name?.message;
  const aboutError = errors.about?.message;

  const submit = form.handleSubmit(
    (values) =>
      update.mutate(values, {
        onSuccess: (saved) => form.reset(valuesOf(saved)),
        onError: toastSubmitError,
      }),
    (errs) => {
      const field = toastFirstError(errs, ORDER);
      if (field) form.setFocus(field);
    },
  );

  return (
    <form aria-label="Profile" noValidate className="space-y-4" onSubmit={submit}>
      <div className="space-y-2">
        <Field id="profile-name" label="Full name" error={nameError}>
          <Input
            {...fieldAria('profile-name', nameError)}
            aria-describedby={
              [nameError ? 'profile-name-error' : null, unchecksId ? 'profile-name-id-warning' : null]
                .filter(Boolean)
                .join(' ') || undefined
            }
            autoComplete="name"
            aria-required="true"
            {...form.register('full_name')}
          />
        </Field>
        {/* Always in the page, so screen readers announce the warning when it appears. */}
        <p id="profile-name-id-warning" role="status" className="text-sm text-amber-800 empty:hidden">
          {unchecksId ? NAME_CHANGE_UNCHECKS_ID : null}
        </p>
      </div>
      <div className="space-y-2">
        <Field id="profile-about" label="About you" error={aboutError}>
          <Textarea
            id="profile-about"
            aria-invalid={aboutError ? true : undefined}
            aria-describedby={aboutError ? 'profile-about-error profile-about-count' : 'profile-about-count'}
            {...form.register('about')}
          />
        </Field>
        <p id="profile-about-count" className="text-sm text-muted-foreground">
          Optional. Shown on your profile page. {counter}.
        </p>
      </div>
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? 'Saving...' : 'Save'}
      </Button>
    </form>
  );
}

/** Settings, 'Profile': my name and 'About you', as other people see them on my profile page. */
export function ProfileSection() {
  return (
    <SettingsSection title="Profile" description="Your name and a few words about you, as other people see them.">
      <SectionQuery query={useAccountProfile()} what="your profile">
        {(profile) => <ProfileForm profile={profile} />}
      </SectionQuery>
    </SettingsSection>
  );
}
