import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  APPROVED_AMOUNT_MESSAGE,
  DECISION_BUTTON_LABELS,
  DECISIONS_BY_KIND,
  DISPUTE_NOTE_MAX,
  disputeDecisionSchema,
  dollarsSchema,
  SPLIT_AMOUNT_MESSAGE,
  type AdminDispute,
  type DisputeDecision,
} from '@shared/disputes';
import { disputeSplit, formatCents } from '@shared/money';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { Field, fieldAria } from '@/components/form/field';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { messageOf, toastFirstError } from '@/lib/form-errors';
import { useDecideDispute } from '../api/disputes';

interface DecisionFormInput {
  decision: DisputeDecision | '';
  note: string;
  amount: string;
}
const ORDER = ['note', 'amount'] as const;
const EMPTY: DecisionFormInput = { decision: '', note: '', amount: '' };

/** What 'Approve claim' may pay at most: the guarantee's cap for this requester, and the item's stated value. */
export function approvableCents(dispute: Pick<AdminDispute, 'claim_cap_cents' | 'item_value_cents'>): number {
  return Math.min(dispute.claim_cap_cents ?? Infinity, dispute.item_value_cents ?? Infinity);
}

/**
 * The shared rules (a decision, the note), and the amount of the decision that takes one: a split refunds between
 * $0.01 and the total less $0.01; an approved claim pays $0.01 up to the cap and the item's value.
 */
function decisionSchema(dispute: AdminDispute) {
  const total = dispute.payment?.total_cents ?? 0;
  const max = approvableCents(dispute);
  return disputeDecisionSchema.superRefine((values, ctx) => {
    const [message, low, high] =
      values.decision === 'split'
        ? [SPLIT_AMOUNT_MESSAGE, 1, total - 1]
        : values.decision === 'approve'
          ? [APPROVED_AMOUNT_MESSAGE, 1, max]
          : [null, 0, 0];
    if (!message) return;
    const cents = dollarsSchema(message).safeParse(values.amount ?? '');
    if (!cents.success || cents.data < low || cents.data > high)
      ctx.addIssue({ code: 'custom', path: ['amount'], message });
  });
}
type DecisionValues = z.output<ReturnType<typeof decisionSchema>>;

/** Dollars as typed -> cents (the schema has checked them). */
const centsOf = (amount: string | undefined) => dollarsSchema('').parse(amount ?? '');

/** What the confirmation says the decision does, in words. */
function consequence(dispute: AdminDispute, values: DecisionValues): string {
  const { requester, driver } = dispute;
  const total = dispute.payment ? formatCents(dispute.payment.total_cents) : 'the payment';
  switch (values.decision) {
    case 'release':
      return `${total} is released to ${driver.full_name} (the driver) and the booking is completed.`;
    case 'refund':
      return `All ${total} goes back to ${requester.full_name} (the requester) and the booking is cancelled.`;
    case 'split': {
      const refund = centsOf(values.amount);
      const kept = dispute.payment
        ? disputeSplit(dispute.payment.compensation_cents, dispute.payment.fee_cents, refund).driverKeepsCents
        : null;
      const rest = kept === null ? 'the rest' : formatCents(kept);
      return `${formatCents(refund)} goes back to ${requester.full_name} (the requester) and ${rest} is released to ${driver.full_name} (the driver).`;
    }
    case 'approve':
      return `The Delivery Guarantee pays ${requester.full_name} ${formatCents(centsOf(values.amount))}.`;
    case 'decline':
      return 'Nothing is paid.';
  }
}

/**
 * An open dispute's decision: the 'Note to both people' (required) and, for the decisions that take one, the amount;
 * then one button per decision this kind of dispute allows. Each checks the form first, then asks to confirm what
 * the decision will do before it is posted (with its money: it cannot be undone). `onDecided` says where focus goes
 * (the card leaves the open list).
 */
export function DecisionForm({ dispute, onDecided }: { dispute: AdminDispute; onDecided: () => void }) {
  const decide = useDecideDispute();
  const decisions = DECISIONS_BY_KIND[dispute.kind];
  const form = useForm<DecisionFormInput, unknown, DecisionValues>({
    resolver: zodResolver(decisionSchema(dispute) as never) as unknown as Resolver<
      DecisionFormInput,
      unknown,
      DecisionValues
    >,
    defaultValues: EMPTY,
  });
  const note = useWatch({ control: form.control, name: 'note' }) ?? '';
  const [pending, setPending] = useState<DecisionValues | null>(null);
  const buttons = useRef<Partial<Record<DisputeDecision, HTMLButtonElement | null>>>({});
  const id = `decision-${dispute.id}`;
  const noteError = messageOf(form.formState.errors, 'note');
  const amountError = messageOf(form.formState.errors, 'amount');

  const takesAmount = decisions.includes('split') || decisions.includes('approve');
  const amountLabel = decisions.includes('split') ? 'Amount refunded to the requester' : 'Amount to pay';
  const amountHint = decisions.includes('split')
    ? `For 'Split' only: between $0.01 and ${formatCents((dispute.payment?.total_cents ?? 0) - 1)}. The rest goes to the driver.`
    : `For 'Approve claim' only: up to ${formatCents(approvableCents(dispute))} (the guarantee's cap and the item's value).`;

  const submit = form.handleSubmit(
    (values) => setPending(values),
    (errors) => {
      const first = toastFirstError(errors, ORDER);
      if (first) form.setFocus(first);
    },
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4 border-t pt-4">
      <h3 className="font-semibold">Decision</h3>
      <CountedTextarea
        id={`${id}-note`}
        label="Note to both people"
        hint="Required. Both people read it with the decision."
        error={noteError}
        limit={DISPUTE_NOTE_MAX}
        length={note.length}
        aria-required
        {...form.register('note')}
      />
      {takesAmount ? (
        <Field id={`${id}-amount`} label={amountLabel} error={amountError} hint={amountHint}>
          <Input
            {...fieldAria(`${id}-amount`, amountError, amountHint)}
            inputMode="decimal"
            autoComplete="off"
            className="sm:w-48"
            {...form.register('amount')}
          />
        </Field>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {decisions.map((decision) => (
          <Button
            key={decision}
            ref={(el) => {
              buttons.current[decision] = el;
            }}
            type="submit"
            variant={decision === 'decline' ? 'outline' : 'default'}
            disabled={decide.isPending}
            onClick={() => form.setValue('decision', decision)}
          >
            {DECISION_BUTTON_LABELS[decision]}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={pending ? `${DECISION_BUTTON_LABELS[pending.decision]}?` : ''}
        description={
          pending ? `${consequence(dispute, pending)} Both people get your note. This cannot be undone.` : ''
        }
        confirmLabel={pending ? DECISION_BUTTON_LABELS[pending.decision] : 'Confirm'}
        busyLabel="Recording..."
        onConfirm={() =>
          decide.mutateAsync({
            id: dispute.id,
            decision: pending!.decision,
            note: pending!.note,
            ...(pending!.decision === 'split' || pending!.decision === 'approve'
              ? { amount: (centsOf(pending!.amount) / 100).toFixed(2) }
              : {}),
          })
        }
        onCloseAutoFocus={(event, succeeded) => {
          event.preventDefault();
          if (succeeded) onDecided();
          else buttons.current[form.getValues('decision') as DisputeDecision]?.focus();
        }}
      />
    </form>
  );
}
