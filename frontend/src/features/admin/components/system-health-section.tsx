import { Activity, ScrollText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AuditLogView } from './audit-log-view';
import { SystemStatusView } from './system-status-view';

/**
 * Admin section 'Salud del Sistema': the live state of the dependencies, queues and workers,
 * and the audit log. Only the open tab is mounted, so only it polls or loads.
 */
export function SystemHealthSection() {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="status" className="max-w-5xl pt-2 pb-12" data-testid="system-health">
      <TabsList aria-label={t('admin.health.tabsLabel')}>
        <TabsTrigger value="status" data-testid="system-health-tab-status">
          <Activity aria-hidden="true" />
          {t('admin.health.tabs.status')}
        </TabsTrigger>
        <TabsTrigger value="audit" data-testid="system-health-tab-audit">
          <ScrollText aria-hidden="true" />
          {t('admin.health.tabs.audit')}
        </TabsTrigger>
      </TabsList>
      <TabsContent value="status">
        <SystemStatusView />
      </TabsContent>
      <TabsContent value="audit">
        <AuditLogView />
      </TabsContent>
    </Tabs>
  );
}
