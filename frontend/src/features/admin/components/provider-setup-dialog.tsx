import type { ConfigurationCheck } from '@life/contracts';
import { CircleCheck, CircleX, ClipboardCheck, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { apiErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useCheckConfiguration, type SetupTarget } from '../api/check-configuration';

/** The check ids the API answers (decision 0044); an id not listed here is shown by its id. */
const KNOWN_CHECKS = new Set([
  'client_id',
  'client_secret',
  'api_key',
  'apple_services_id',
  'apple_key',
  'urls',
  'https',
  'discovery',
  'discovery_endpoints',
  'jwks',
  'authorization_endpoint',
  'token_endpoint',
  'login_provider',
]);

export interface ProviderSetupDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What to set up: the row's kind and id, the name to show, and the redirect URI to register. */
  target: (SetupTarget & { name: string; callbackUrl: string }) | null;
}

/**
 * 'Configurar' for a login provider or a catalog service (issue 16): the redirect URI to register
 * at the provider, with a copy button, and 'Comprobar configuración', which checks what is saved
 * without starting a sign-in and lists what passed and what to fix, in the language on screen.
 */
export function ProviderSetupDialog({ open, onOpenChange, target }: ProviderSetupDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="z-[80] max-w-2xl overflow-hidden" overlayClassName="z-[80]" data-testid="setup-dialog">
        <DialogHeader>
          <DialogTitle>{t('admin.setup.title', { name: target?.name ?? '' })}</DialogTitle>
          <DialogDescription>{t('admin.setup.description')}</DialogDescription>
        </DialogHeader>
        {/* Remounted per row, so one row's results never show under another's name. */}
        {target && <SetupBody key={`${target.kind}:${target.id}`} target={target} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function SetupBody({ target, onDone }: { target: SetupTarget & { name: string; callbackUrl: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const check = useCheckConfiguration();

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 grid min-h-0 flex-1 grid-cols-1 content-start gap-5 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:px-7 [&>*]:min-w-0">
        <CopyField label={t('admin.setup.redirectUri')} value={target.callbackUrl} testId="setup-redirect-uri" />
        <p className="-mt-3 text-xs text-muted-foreground">{t('admin.setup.redirectHint')}</p>

        <div>
          <Button variant="outline" onClick={() => check.mutate({ kind: target.kind, id: target.id })} disabled={check.isPending} data-testid="setup-check">
            {check.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <ClipboardCheck aria-hidden="true" />}
            {check.isPending ? t('admin.setup.checking') : t('admin.setup.check')}
          </Button>
        </div>

        {/* Announced when the answer arrives; the list itself is read on demand. */}
        <div aria-live="polite" className="grid grid-cols-1 gap-3">
          {check.isError && (
            <Alert variant="error" data-testid="setup-error">
              {t('admin.setup.failed', { message: apiErrorMessage(check.error) ?? '' })}
            </Alert>
          )}
          {check.data && <CheckResults report={check.data} />}
        </div>
      </div>
      <div className="-mx-6 flex justify-end border-t px-6 pt-4 sm:-mx-7 sm:px-7">
        <Button variant="outline" onClick={onDone} data-testid="setup-close">
          {t('admin.setup.close')}
        </Button>
      </div>
    </div>
  );
}

function CheckResults({ report }: { report: ConfigurationCheck }) {
  const { t } = useTranslation();
  const failed = report.checks.filter((item) => !item.ok).length;
  return (
    <section aria-labelledby="setup-results-title" className="grid min-w-0 grid-cols-1 gap-3" data-testid="setup-results" data-ok={String(report.ok)}>
      <h3 id="setup-results-title" className="text-sm font-semibold">
        {t('admin.setup.resultsTitle')}
      </h3>
      <Alert variant={report.ok ? 'success' : 'warning'} data-testid="setup-summary">
        {report.ok ? t('admin.setup.allOk') : t('admin.setup.problems', { count: failed })}
      </Alert>
      <ul className="grid grid-cols-1 gap-2">
        {report.checks.map((item) => (
          <li
            key={item.id}
            className={cn('flex items-start gap-3 rounded-xl border px-3 py-2.5 text-sm', item.ok ? 'border-border bg-card' : 'border-red-200 bg-red-50/60')}
            data-testid="setup-check-item"
            data-check={item.id}
            data-ok={String(item.ok)}
          >
            {item.ok ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
            ) : (
              <CircleX aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-700" />
            )}
            <div className="min-w-0 flex-1">
              <p className="font-medium">
                <span className="sr-only">{item.ok ? t('admin.setup.passed') : t('admin.setup.notPassed')}: </span>
                {KNOWN_CHECKS.has(item.id) ? t(`admin.setup.checks.${item.id}`) : item.id}
              </p>
              {/* Messages carry URLs: they wrap anywhere rather than widen the dialog. */}
              <p className={cn('[overflow-wrap:anywhere]', item.ok ? 'text-muted-foreground' : 'text-red-800')}>{item.message}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
