import { AppWindow, ChartNoAxesCombined, HeartPulse, Inbox, KeyRound, MailPlus, Plug } from 'lucide-react';
import type { AdminSection } from '@/components/layout/admin-panel-shell';
import { AppsAdminSection } from './components/apps-admin-section';
import { BetaInvitesSection } from './components/beta-invites-section';
import { ContactMessagesView, UnhandledContactMessagesBadge } from './components/contact-messages-view';
import { LoginProvidersSection } from './components/login-providers-section';
import { SalesView } from './components/sales-view';
import { ServicesAdminSection } from './components/services-admin-section';
import { SystemHealthSection } from './components/system-health-section';

/**
 * The admin panel's sections, in menu order. Every section body lives in this feature
 * (`./components`); `Component` plugs it in and the shell already renders the title.
 */
export type AdminSectionId = 'betainvites' | 'loginproviders' | 'servicios' | 'aplicaciones' | 'salud';

export const DEFAULT_ADMIN_SECTION: AdminSectionId = 'servicios';

export const ADMIN_SECTIONS: readonly AdminSection<AdminSectionId>[] = [
  {
    id: 'betainvites',
    navLabelKey: 'admin.nav.betainvites',
    titleKey: 'admin.sections.betainvites',
    icon: MailPlus,
    Component: BetaInvitesSection,
  },
  {
    id: 'loginproviders',
    navLabelKey: 'admin.nav.loginproviders',
    titleKey: 'admin.sections.loginproviders',
    icon: KeyRound,
    Component: LoginProvidersSection,
  },
  {
    id: 'servicios',
    navLabelKey: 'admin.nav.servicios',
    titleKey: 'admin.sections.servicios',
    icon: Plug,
    Component: ServicesAdminSection,
  },
  {
    id: 'aplicaciones',
    navLabelKey: 'admin.nav.aplicaciones',
    titleKey: 'admin.sections.aplicaciones',
    icon: AppWindow,
    Component: AppsAdminSection,
  },
  {
    id: 'salud',
    navLabelKey: 'admin.nav.salud',
    titleKey: 'admin.sections.salud',
    icon: HeartPulse,
    Component: SystemHealthSection,
  },
];

/** Views opened from a link in the panel's header, so the menu keeps the spec's five sections (docs/decisions/0007). */
export type AdminHeaderViewId = 'ventas' | 'contactmessages';

export const ADMIN_HEADER_VIEWS: readonly AdminSection<AdminHeaderViewId>[] = [
  // Issue 17: the company's sales (decision 0049).
  {
    id: 'ventas',
    navLabelKey: 'admin.sales.open',
    titleKey: 'admin.sales.title',
    icon: ChartNoAxesCombined,
    Component: SalesView,
  },
  {
    id: 'contactmessages',
    navLabelKey: 'contact.admin.open',
    titleKey: 'contact.admin.title',
    icon: Inbox,
    Component: ContactMessagesView,
    Badge: UnhandledContactMessagesBadge,
  },
];
