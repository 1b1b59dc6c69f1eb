import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  DELETE_CONFIRM_MESSAGE,
  DELETE_CONFIRM_WORD,
  DELETED_USER_NAME,
  type DeleteAccountInput,
  deleteAccountSchema,
} from '@shared/account';
import { anyCodeSchema } from '@shared/two-factor';
import { Field, fieldAria } from '@/components/form/field';
import { SettingsSection } from '@/components/settings-section';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useDeleteAccount } from '../api/data';
import { useTwoFactorStatus } from '../api/two-factor';
import { PasswordAndCodeFields, showIdentityError, type PasswordAndCode } from './password-and-code';
import { zodRule } from './two-factor-code-field';

const EMPTY = { confirm: '', password: '', code: '' };
type Values = typeof EMPTY;

/** What deleting does, in the order it matters to the people involved. */
function Consequences() {
  return (
    <ul className="list-disc space-y-1 pl-6">
      <li>Your open offers are withdrawn.</li>
      <li>Your confirmed bookings are cancelled, and the other people are told.</li>
      <li>Your rides and requests are removed.</li>
      <li>Your name, e-mail address, password and sign-ins are erased.</li>
      <li>Your messages and reviews stay, shown as from &lsquo;{DELETED_USER_NAME}&rsquo;.</li>
    </ul>
  );
}

/**
 * The confirmation: type DELETE, the password, and a code when two-factor is on (the status says so, or the server
 * answered `code_required`). 'Delete account' stays disabled until DELETE is typed. On success the account is gone:
 * useDeleteAccount leaves for the home page.
 */
function DeleteAccountDialog() {
  const [open, setOpen] = useState(false);
  const [codeAsked, setCodeAsked] = useState(false);
  const status = useTwoFactorStatus();
  const needCode = codeAsked || status.data?.enabled === true;
  const remove = useDeleteAccount();
  const form = useForm<Values>({ defaultValues: EMPTY, shouldUnregister: true });
  const { errors } = form.formState;
  // The password and code fields, as the shared identity fields see them (the form has 'confirm' too).
  const identity = form as unknown as UseFormReturn<PasswordAndCode>;
  const typed = useWatch({ control: form.control, name: 'confirm' }) ?? '';
  const busy = remove.isPending;

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset(EMPTY);
      setCodeAsked(false);
    }
  };

  const submit = form.handleSubmit(({ confirm, password, code }) => {
    const input: DeleteAccountInput = needCode
      ? { confirm, password, code: anyCodeSchema.parse(code) }
      : { confirm, password };
    remove.mutate(input, {
      onError: (err) => showIdentityError(err, identity, () => setCodeAsked(true)),
    });
  });

  return (
    <AlertDialog open={open} onOpenChange={changeOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">Delete account</Button>
      </AlertDialogTrigger>
      <AlertDialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <AlertDialogHeader>
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="space-y-2">
              <p>This cannot be undone.</p>
              <Consequences />
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <form aria-label="Delete account" noValidate className="space-y-4" onSubmit={submit}>
          <Field id="delete-confirm" label={DELETE_CONFIRM_MESSAGE} error={errors.confirm?.message}>
            <Input
              {...fieldAria('delete-confirm', errors.confirm?.message)}
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-required="true"
              autoFocus
              {...form.register('confirm', { validate: zodRule(deleteAccountSchema.shape.confirm) })}
            />
          </Field>
          <PasswordAndCodeFields form={identity} idPrefix="delete" needCode={needCode} codeAsked={codeAsked} />
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={busy || typed.trim() !== DELETE_CONFIRM_WORD}>
              {busy ? 'Deleting account...' : 'Delete account'}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Settings, 'Delete account' (the last card): what happens, in plain words, and the confirmation dialog. */
export function DeleteAccountSection() {
  return (
    <SettingsSection
      title="Delete account"
      description="Delete your RuralRoute account and the personal details in it. This cannot be undone."
      className="border-2 border-destructive"
    >
      <div className="space-y-4">
        <p>When you delete your account:</p>
        <Consequences />
        <p>You can sign up again later with the same e-mail address, as a new account.</p>
        <DeleteAccountDialog />
      </div>
    </SettingsSection>
  );
}
