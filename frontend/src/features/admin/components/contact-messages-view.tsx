import { useId, useState } from 'react';
import { CONTACT_MESSAGE_STATUSES, CONTACT_SUBJECTS, type ContactMessageDto, type ContactMessageStatus, type ContactSubject } from '@life/contracts';
import { Check, CircleAlert, CircleCheck, Clock, LoaderCircle, Reply, UserRound, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useContactMessages, type ContactMessageFilter } from '../api/get-contact-messages';
import { useMarkContactMessageHandled } from '../api/mark-contact-message-handled';

const STATUS_STYLE: Record<ContactMessageStatus, { icon: LucideIcon; className: string }> = {
  received: { icon: Clock, className: 'bg-muted text-muted-foreground' },
  sent: { icon: CircleCheck, className: 'bg-success/10 text-[#166534]' },
  failed: { icon: CircleAlert, className: 'bg-destructive/10 text-[#991b1b]' },
};

/**
 * Admin view of the contact page's messages (opened from the panel's header, not the menu):
 * newest first, filtered by subject and delivery status, each one markable as handled.
 */
export function ContactMessagesView() {
  const { t } = useTranslation();
  const id = useId();
  const [filter, setFilter] = useState<ContactMessageFilter>({});
  const messages = useContactMessages(filter);
  const markHandled = useMarkContactMessageHandled();

  return (
    <div className="grid max-w-4xl gap-6 pt-2" data-testid="contact-messages">
      <div className="flex flex-col gap-4 rounded-2xl border bg-card p-5 shadow-soft sm:flex-row">
        <div className="grid flex-1 gap-2">
          <label htmlFor={`${id}-subject`} className="text-sm font-medium text-foreground">
            {t('contact.admin.filters.subject')}
          </label>
          <NativeSelect
            id={`${id}-subject`}
            value={filter.subject ?? ''}
            onChange={(event) => setFilter((current) => ({ ...current, subject: (event.target.value || undefined) as ContactSubject | undefined }))}
            data-testid="contact-filter-subject"
          >
            <option value="">{t('contact.admin.filters.all')}</option>
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject} value={subject}>
                {t(`contact.subjects.${subject}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid flex-1 gap-2">
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-foreground">
            {t('contact.admin.filters.status')}
          </label>
          <NativeSelect
            id={`${id}-status`}
            value={filter.status ?? ''}
            onChange={(event) => setFilter((current) => ({ ...current, status: (event.target.value || undefined) as ContactMessageStatus | undefined }))}
            data-testid="contact-filter-status"
          >
            <option value="">{t('contact.admin.filters.all')}</option>
            {CONTACT_MESSAGE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`contact.admin.statusFilter.${status}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      {(messages.isError || markHandled.isError) && (
        <Alert variant="error" data-testid="contact-messages-error">
          {messages.isError && <p>{t('contact.admin.errors.list')}</p>}
          {markHandled.isError && <p>{t('contact.admin.errors.handle')}</p>}
        </Alert>
      )}

      {messages.isPending ? (
        <p className="py-10 text-center text-sm text-muted-foreground">{t('contact.admin.loading')}</p>
      ) : messages.isError ? null : messages.data.length === 0 ? (
        <p className="rounded-2xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground shadow-soft" data-testid="contact-messages-empty">
          {t('contact.admin.empty')}
        </p>
      ) : (
        <ul className={cn('grid gap-4', messages.isPlaceholderData && 'opacity-60')} aria-label={t('contact.admin.listLabel')}>
          {messages.data.map((message) => (
            <ContactMessageCard
              key={message.id}
              message={message}
              marking={markHandled.isPending && markHandled.variables?.id === message.id}
              onMarkHandled={() => markHandled.mutate({ id: message.id })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ContactMessageCard({ message, marking, onMarkHandled }: { message: ContactMessageDto; marking: boolean; onMarkHandled: () => void }) {
  const { t } = useTranslation();
  const status = STATUS_STYLE[message.status];
  const StatusIcon = status.icon;
  const date = (iso: string) => formatDateTime(iso);
  const subjectLabel = t(`contact.subjects.${message.subject}`);
  const replyHref = `mailto:${message.email}?subject=${encodeURIComponent(`Re: ${subjectLabel}`)}`;

  return (
    <li
      className={cn('grid gap-4 rounded-2xl border bg-card p-5 shadow-soft', message.handled_at && 'bg-card/60')}
      data-testid="contact-message"
      data-status={message.status}
      data-handled={message.handled_at ? 'true' : 'false'}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="font-semibold break-words text-foreground" data-testid="contact-message-from">
            {message.name} <span className="font-normal break-all text-muted-foreground">&lt;{message.email}&gt;</span>
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <time dateTime={message.created_at}>{date(message.created_at)}</time>
            {message.user_id && (
              <span className="inline-flex items-center gap-1">
                <UserRound aria-hidden="true" className="size-3.5" />
                {t('contact.admin.signedIn')}
              </span>
            )}
          </p>
        </div>
        <span className="rounded-full bg-secondary px-3 py-1 text-xs font-medium text-secondary-foreground" data-testid="contact-message-subject">
          {subjectLabel}
        </span>
      </div>

      <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-foreground/90" data-testid="contact-message-text">
        {message.message}
      </p>

      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4">
        <div className="grid gap-1 text-xs">
          <span
            className={cn('inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-1 font-medium', status.className)}
            data-testid="contact-message-status"
          >
            <StatusIcon aria-hidden="true" className="size-3.5" />
            {t(`contact.admin.statuses.${message.status}`)}
            {message.attempts > 1 && <span className="font-normal">· {t('contact.admin.attempts', { count: message.attempts })}</span>}
          </span>
          {message.last_error && message.status !== 'sent' && (
            <span className="break-all text-muted-foreground" data-testid="contact-message-error">
              {t('contact.admin.lastError', { error: message.last_error })}
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="ghost" size="sm">
            <a href={replyHref}>
              <Reply aria-hidden="true" />
              {t('contact.admin.reply')}
            </a>
          </Button>
          {message.handled_at ? (
            <span
              className="inline-flex items-center gap-1.5 text-xs text-muted-foreground"
              data-testid="contact-message-handled"
              title={t('contact.admin.handledBy', { admin: message.handled_by ?? '-', date: date(message.handled_at) })}
            >
              <Check aria-hidden="true" className="size-4 text-success" />
              {t('contact.admin.handledBy', { admin: message.handled_by ?? '-', date: date(message.handled_at) })}
            </span>
          ) : (
            <Button variant="outline" size="sm" disabled={marking} onClick={onMarkHandled} data-testid="contact-message-mark-handled">
              {marking ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Check aria-hidden="true" />}
              {t('contact.admin.markHandled')}
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

/** How many of the latest messages nobody has handled yet, for the link in the panel's header. */
export function UnhandledContactMessagesBadge() {
  const { t } = useTranslation();
  const messages = useContactMessages();
  const count = messages.data?.filter((message) => !message.handled_at).length ?? 0;
  if (count === 0) return null;
  return (
    <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground tabular-nums" data-testid="contact-messages-unhandled">
      <span aria-hidden="true">{count >= 100 ? '99+' : count}</span>
      <span className="sr-only">{t('contact.admin.unhandledCount', { count })}</span>
    </span>
  );
}
