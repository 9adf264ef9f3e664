import { useState } from 'react';
import type { ContactSubject } from '@life/contracts';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { ContactConfirmation } from './contact-confirmation';
import { ContactForm, type SentMessage } from './contact-form';

export interface ContactPageProps {
  /** Preselected subject, e.g. `privacy` when the privacy policy links here. */
  initialSubject?: ContactSubject;
}

/** `/contact`: a form to write to the company; after sending, what happens next. */
export function ContactPage({ initialSubject }: ContactPageProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [sent, setSent] = useState<SentMessage | null>(null);
  // A new form (fresh fields and prefill) each time: after "send another" and when the account changes.
  const [formKey, setFormKey] = useState(0);

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-foreground sm:text-4xl">{t('contact.title')}</h1>
      <p className="mt-3 text-muted-foreground">{t('contact.subtitle')}</p>
      <div className="mt-8 rounded-3xl border bg-card p-6 shadow-soft sm:p-8">
        {sent ? (
          <ContactConfirmation
            sent={sent}
            onSendAnother={() => {
              setSent(null);
              setFormKey((key) => key + 1);
            }}
          />
        ) : (
          <ContactForm key={`${formKey}:${user?.id ?? 'visitor'}`} user={user} initialSubject={initialSubject} onSent={setSent} />
        )}
      </div>
    </div>
  );
}
