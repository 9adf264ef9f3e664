import { useEffect, useRef } from 'react';
import { CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { SentMessage } from './contact-form';

/** Shown instead of the form once the message is accepted: what happens next. */
export function ContactConfirmation({ sent, onSendAnother }: { sent: SentMessage; onSendAnother: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The form that had focus is gone: move focus to the news, so it is read out.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <div role="status" className="grid gap-4" data-testid="contact-success">
      <div className="flex items-center gap-3">
        <CircleCheck aria-hidden="true" className="size-8 shrink-0 text-success" />
        <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight text-foreground focus:outline-none">
          {t('contact.success.title')}
        </h2>
      </div>
      <p className="text-foreground/85">{t('contact.success.body', { name: sent.name, email: sent.email })}</p>
      {sent.subject === 'privacy' && <p className="text-foreground/85">{t('contact.success.privacy')}</p>}
      <p className="text-sm text-muted-foreground">{t('contact.success.noResend')}</p>
      <div>
        <Button variant="outline" onClick={onSendAnother} data-testid="contact-send-another">
          {t('contact.success.another')}
        </Button>
      </div>
    </div>
  );
}
