import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import type * as React from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { CONTACT_LIMITS } from '@shared/contact';
import { PLAN_TERMS } from '@shared/plans';
import {
  SUPPORT_TEXT,
  supportReplySchema,
  type SupportMessage,
  type SupportReply,
  type SupportReplyInput,
  type SupportStatus,
} from '@shared/support';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useTabParam } from '@/hooks/use-tab-param';
import { messageOf, toastFirstError } from '@/lib/form-errors';
import { formatInstant } from '@/lib/format';
import { useAnsweredSupportMessages, useOpenSupportMessages, useReplyToSupportMessage } from '../api/support';

const EMPTY: SupportReplyInput = { reply: '' };

/**
 * 'Reply': the answer in a dialog ('Your answer', up to the contact form's own limit), checked by the shared schema;
 * 'Send reply' posts it and the dialog closes once it is sent. It keeps what was typed when the send fails (the hook
 * has toasted why). `onSent` says where focus goes: the 'Reply' button is gone once the message is answered.
 */
function ReplyDialog({
  message,
  open,
  onOpenChange,
  onClosed,
}: {
  message: SupportMessage;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onClosed: (event: Event, sent: boolean) => void;
}) {
  const reply = useReplyToSupportMessage();
  const sent = useRef(false);
  const form = useForm<SupportReplyInput, unknown, SupportReply>({
    resolver: zodResolver(supportReplySchema),
    defaultValues: EMPTY,
  });
  const text = useWatch({ control: form.control, name: 'reply' }) ?? '';
  const error = messageOf(form.formState.errors, 'reply');
  const id = `support-${message.id}-answer`;

  // Built per submit (an event), not during render: its callbacks use the `sent` ref.
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (values) =>
        sendThenClose(
          () => reply.mutateAsync({ id: message.id, ...values }),
          () => {
            sent.current = true;
            form.reset(EMPTY);
            onOpenChange(false);
          },
        ),
      (errors) => toastFirstError(errors, ['reply']),
    )(event);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(EMPTY);
        onOpenChange(next);
      }}
    >
      <FormDialogContent
        title={`Reply to ${message.name}`}
        description={`Your answer is e-mailed to ${message.email} with their message quoted, and the message is marked 'Answered'. You can answer once.`}
        onSubmit={(event) => void submit(event)}
        busy={form.formState.isSubmitting}
        submitLabel={SUPPORT_TEXT.send}
        busyLabel={SUPPORT_TEXT.sending}
        onCloseAutoFocus={(event) => {
          const ok = sent.current;
          sent.current = false;
          onClosed(event, ok);
        }}
      >
        <CountedTextarea
          id={id}
          label={SUPPORT_TEXT.answerLabel}
          hint={`Re: ${message.subject}`}
          error={error}
          limit={CONTACT_LIMITS.messageMax}
          length={text.length}
          rows={8}
          aria-required
          {...form.register('reply')}
        />
      </FormDialogContent>
    </Dialog>
  );
}

/** Text as the person typed it: line breaks kept, long words wrapped. */
function Typed({ children }: { children: string }) {
  return <p className="whitespace-pre-wrap break-words">{children}</p>;
}

/**
 * One message: its subject, who sent it and when, the sender's plan ('Plus', 'Community') when they have one, the
 * message, and either 'Reply' or, once answered, 'Answered' with the answer, who sent it and when.
 */
export function SupportMessageCard({ message }: { message: SupportMessage }) {
  const [open, setOpen] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const replyRef = useRef<HTMLButtonElement>(null);
  const headingId = `support-${message.id}`;
  const answered = message.replied_at !== null;
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardHeader className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id={headingId} ref={headingRef} tabIndex={-1} className="focus-visible:outline-none">
            {message.subject}
          </CardTitle>
          {message.plan ? (
            <Badge tone={message.plan === 'community' ? 'green' : 'blue'}>{PLAN_TERMS[message.plan].name}</Badge>
          ) : null}
          {answered ? <Badge tone="neutral">{SUPPORT_TEXT.answered}</Badge> : null}
        </div>
        <p className="text-sm text-muted-foreground">
          From {message.name} (<a href={`mailto:${message.email}`}>{message.email}</a>){' · '}
          <time dateTime={message.created_at}>{formatInstant(message.created_at)}</time>
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        <Typed>{message.message}</Typed>
        {answered ? (
          <section aria-label="Answer" className="space-y-1 rounded-md border bg-muted/40 p-3">
            <p className="text-sm text-muted-foreground">
              Answered
              {message.replied_by ? ` by ${message.replied_by.full_name}` : ''}
              {message.replied_at ? (
                <>
                  {' on '}
                  <time dateTime={message.replied_at}>{formatInstant(message.replied_at)}</time>
                </>
              ) : null}
            </p>
            <Typed>{message.reply ?? ''}</Typed>
          </section>
        ) : (
          <div className="border-t pt-4">
            <Button ref={replyRef} type="button" aria-describedby={headingId} onClick={() => setOpen(true)}>
              {SUPPORT_TEXT.reply}
            </Button>
          </div>
        )}
        <ReplyDialog
          message={message}
          open={open}
          onOpenChange={setOpen}
          onClosed={(event, sent) => {
            // Sent: the 'Reply' button is gone, so focus goes to the message (now 'Answered'); else back to 'Reply'.
            event.preventDefault();
            (sent ? headingRef.current : (replyRef.current ?? headingRef.current))?.focus();
          }}
        />
      </CardContent>
    </Card>
  );
}

function OpenMessages() {
  return (
    <>
      <h2 className="sr-only">Open messages, Plus and Community members first, then oldest first</h2>
      <PaginatedList
        query={useOpenSupportMessages()}
        what="open messages"
        empty={SUPPORT_TEXT.emptyOpen}
        renderItem={(message) => <SupportMessageCard message={message} />}
      />
    </>
  );
}

function AnsweredMessages() {
  return (
    <>
      <h2 className="sr-only">Answered messages, newest first</h2>
      <PaginatedList
        query={useAnsweredSupportMessages()}
        what="answered messages"
        empty={SUPPORT_TEXT.emptyAnswered}
        renderItem={(message) => <SupportMessageCard message={message} />}
      />
    </>
  );
}

/**
 * '/dashboard/admin/support' (admins only): the contact form's messages. 'Open' ones first for Plus and Community
 * members, then oldest first, each with 'Reply'; 'Answered' ones with their answer. The tab is in the address
 * (?tab=answered); only the open tab's list is loaded.
 */
export function AdminSupportPage() {
  const [tab, setTab] = useTabParam<SupportStatus>(['open', 'answered']);
  return (
    <div>
      <PageHeader title={SUPPORT_TEXT.title} description={SUPPORT_TEXT.description} />
      <Tabs value={tab} onValueChange={(value) => setTab(value === 'answered' ? 'answered' : 'open')}>
        <TabsList className="sm:w-auto">
          <TabsTrigger value="open">{SUPPORT_TEXT.open}</TabsTrigger>
          <TabsTrigger value="answered">{SUPPORT_TEXT.answered}</TabsTrigger>
        </TabsList>
        <TabsContent value="open">
          <OpenMessages />
        </TabsContent>
        <TabsContent value="answered">
          <AnsweredMessages />
        </TabsContent>
      </Tabs>
    </div>
  );
}
