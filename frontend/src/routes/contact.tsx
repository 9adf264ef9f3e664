import { createFileRoute } from '@tanstack/react-router';
import { CONTACT_SUBJECTS } from '@life/contracts';
import { z } from 'zod';
import { ContactPage } from '@/features/contact/components/contact-page';

/** `?subject=privacy` preselects a subject (the privacy policy links with it); anything else is ignored. */
const ContactSearchSchema = z.object({ subject: z.enum(CONTACT_SUBJECTS).optional().catch(undefined) });

export const Route = createFileRoute('/contact')({
  validateSearch: ContactSearchSchema,
  component: ContactRoute,
});

function ContactRoute() {
  const { subject } = Route.useSearch();
  return <ContactPage initialSubject={subject} />;
}
