import { AdminPanelShell } from '@/components/layout/admin-panel-shell';
import { ADMIN_HEADER_VIEWS, ADMIN_SECTIONS, DEFAULT_ADMIN_SECTION, type AdminHeaderViewId, type AdminSectionId } from '../sections';

export interface AdminPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AdminPanel({ open, onOpenChange }: AdminPanelProps) {
  return (
    <AdminPanelShell<AdminSectionId | AdminHeaderViewId>
      open={open}
      onOpenChange={onOpenChange}
      sections={ADMIN_SECTIONS}
      headerViews={ADMIN_HEADER_VIEWS}
      defaultSectionId={DEFAULT_ADMIN_SECTION}
    />
  );
}
