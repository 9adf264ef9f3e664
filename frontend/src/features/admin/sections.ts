import { AppWindow, HeartPulse, KeyRound, MailPlus, Plug } from 'lucide-react';
import type { AdminSection } from '@/components/layout/admin-panel-shell';
import { BetaInvitesSection } from './components/beta-invites-section';
import { LoginProvidersSection } from './components/login-providers-section';

/**
 * The admin panel's sections, in menu order. Each later feature plugs its body in by
 * setting `Component`; the shell already renders the title.
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
  { id: 'servicios', navLabelKey: 'admin.nav.servicios', titleKey: 'admin.sections.servicios', icon: Plug },
  {
    id: 'aplicaciones',
    navLabelKey: 'admin.nav.aplicaciones',
    titleKey: 'admin.sections.aplicaciones',
    icon: AppWindow,
  },
  // Salud shows only its title ('Salud del Sistema') by design.
  { id: 'salud', navLabelKey: 'admin.nav.salud', titleKey: 'admin.sections.salud', icon: HeartPulse },
];
