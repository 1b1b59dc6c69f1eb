import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  RESERVE_AMOUNT_MESSAGE,
  RESERVE_NOTE_MESSAGE,
  reserveFundSchema,
  type ReserveFundInput,
} from '@shared/payments';
import { InputField, TextareaField } from '@/components/form/input-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { messageOf, toastFirstError } from '@/lib/form-errors';
import { toastMutationError } from '@/lib/mutation-errors';
import { useAddToReserve } from '../api/payments';

const EMPTY: ReserveFundInput = { amount: '', note: '' };
const FIELDS = ['amount', 'note'] as const;

/** The field a server refusal is about: its messages are the shared schema's. */
function fieldOf(err: unknown): (typeof FIELDS)[number] | undefined {
  if (!(err instanceof ApiError) || err.code !== 'validation_error') return undefined;
  if (err.message === RESERVE_AMOUNT_MESSAGE) return 'amount';
  if (err.message === RESERVE_NOTE_MESSAGE) return 'note';
  return undefined;
}

/**
 * 'Add to the reserve' (admins): the platform's own money into the Delivery Guarantee's reserve, with a note of where
 * it comes from (the moderation log keeps both). Checked with the shared schema before it is sent; a refusal of the
 * server goes back under its field.
 */
export function ReserveFundForm() {
  const add = useAddToReserve();
  const form = useForm<ReserveFundInput, unknown, z.output<typeof reserveFundSchema>>({
    resolver: zodResolver(reserveFundSchema),
    defaultValues: EMPTY,
  });
  const submit = form.handleSubmit(
    ({ amount, note }) =>
      add.mutateAsync({ amount: (amount / 100).toFixed(2), note }).then(
        () => form.reset(EMPTY),
        (err: unknown) => {
          toastMutationError(err);
          const field = fieldOf(err);
          if (field) form.setError(field, { message: (err as ApiError).message }, { shouldFocus: true });
        },
      ),
    (errors) => {
      const first = toastFirstError(errors, FIELDS);
      if (first) form.setFocus(first);
    },
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle id="reserve-fund-title">Add to the reserve</CardTitle>
        <CardDescription>
          RuralRoute&apos;s own money into the Delivery Guarantee&apos;s reserve, besides its share of every fee. Claims
          waiting for funds are paid at once.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-labelledby="reserve-fund-title"
          onSubmit={(event) => void submit(event)}
          className="space-y-4"
        >
          <InputField
            id="reserve-amount"
            label="Amount"
            hint="In dollars, e.g. 100.00"
            error={messageOf(form.formState.errors, 'amount')}
            inputMode="decimal"
            autoComplete="off"
            aria-required
            className="sm:w-48"
            {...form.register('amount')}
          />
          <TextareaField
            id="reserve-note"
            label="Note"
            hint="Where the money comes from (kept in the moderation log)."
            error={messageOf(form.formState.errors, 'note')}
            aria-required
            rows={2}
            {...form.register('note')}
          />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add to the reserve'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
