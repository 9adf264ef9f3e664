import { AdminPanelShell } from '@/components/layout/admin-panel-shell';
import { ADMIN_SECTIONS, DEFAULT_ADMIN_SECTION } from '../sections';

export interface AdminPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AdminPanel({ open, onOpenChange }: AdminPanelProps) {
  return <AdminPanelShell open={open} onOpenChange={onOpenChange} sections={ADMIN_SECTIONS} defaultSectionId={DEFAULT_ADMIN_SECTION} />;
}
