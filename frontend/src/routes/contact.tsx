import { createFileRoute } from '@tanstack/react-router';
import type { ContactSubject } from '@life/contracts';
import { CONTACT_SUBJECTS } from '@/lib/contract-constants';
import { ContactPage } from '@/features/contact/components/contact-page';

export interface ContactSearch {
  subject?: ContactSubject;
}

export const Route = createFileRoute('/contact')({
  /**
   * `?subject=privacy` preselects a subject (the privacy policy links with it); anything else is
   * ignored. Checked by hand: the route tree is loaded by every page, zod is not (issue 15).
   */
  validateSearch: (search: Record<string, unknown>): ContactSearch =>
    // An explicit `undefined`, as zod's `.catch(undefined)` gave: the router keeps raw keys a route does not set.
    ({ subject: (CONTACT_SUBJECTS as readonly unknown[]).includes(search.subject) ? (search.subject as ContactSubject) : undefined }),
  component: ContactRoute,
});

function ContactRoute() {
  const { subject } = Route.useSearch();
  return <ContactPage initialSubject={subject} />;
}
