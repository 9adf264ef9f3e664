import { useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Download, FileJson, LoaderCircle, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDownloadDataExport } from '../api/download-data-export';
import { useDataExport } from '../api/get-data-export';
import { useProfile } from '../api/get-profile';
import { useStartDataExport } from '../api/start-data-export';
import { EraseAccountDialog } from './erase-account-dialog';

/** The anchor the dashboard's privacy banner and the privacy policy link to. */
export const DATA_RIGHTS_ANCHOR = 'tus-datos';

/**
 * 'Tus datos' on the profile: the data rights the privacy policy promises, without writing to
 * us. 'Descargar mis datos' (access, portability) and 'Eliminar mi cuenta' (erasure).
 */
export function DataRightsSection() {
  const { t } = useTranslation();
  return (
    <section
      id={DATA_RIGHTS_ANCHOR}
      aria-labelledby="data-rights-title"
      data-testid="data-rights"
      className="mt-8 scroll-mt-24 rounded-3xl border bg-card p-6 shadow-soft sm:p-8"
    >
      <h2 id="data-rights-title" className="text-xl font-semibold tracking-tight text-foreground">
        {t('dataRights.title')}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {t('dataRights.intro')}{' '}
        <Link to="/privacy-policy" hash="que-guardamos" className="font-medium text-primary underline underline-offset-4">
          {t('dataRights.policyLink')}
        </Link>
      </p>
      <div className="mt-6 grid gap-4">
        <DataExportPanel />
        <EraseAccountPanel />
      </div>
    </section>
  );
}

function DataExportPanel() {
  const { t } = useTranslation();
  const start = useStartDataExport();
  const [exportId, setExportId] = useState<string>();
  const current = useDataExport(exportId);
  const download = useDownloadDataExport();
  // The file is saved once, by itself, when it becomes ready; then only by hand.
  const savedFor = useRef<string | undefined>(undefined);

  const status = current.data?.status;
  const working = start.isPending || status === 'pending' || status === 'running';

  useEffect(() => {
    if (!exportId || status !== 'ready' || savedFor.current === exportId) return;
    savedFor.current = exportId;
    download.mutate({ id: exportId });
  }, [exportId, status, download]);

  function handleStart() {
    download.reset();
    start.mutate(undefined, { onSuccess: (dataExport) => setExportId(dataExport.id) });
  }

  const failure = start.error ?? current.error ?? download.error;
  const expiresAt = current.data?.expires_at;

  return (
    <div className="grid gap-4 rounded-2xl border px-4 py-5 sm:px-5" data-testid="data-export">
      <div className="flex min-w-0 items-start gap-3">
        {/* Phones: the text gets the whole width. */}
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground sm:inline-flex">
          <FileJson aria-hidden="true" className="size-4" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold text-foreground">{t('dataRights.export.title')}</h3>
          <p className="mt-1 text-sm text-muted-foreground">{t('dataRights.export.description')}</p>
        </div>
      </div>

      <div aria-live="polite" className="grid gap-3 empty:hidden">
        {working && exportId !== undefined && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="data-export-status" data-status={status}>
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            {t('dataRights.export.preparing')}
          </p>
        )}
        {status === 'ready' && expiresAt && (
          <Alert variant="success" data-testid="data-export-ready">
            {t('dataRights.export.ready', { date: formatDateTime(expiresAt, { dateStyle: 'long', timeStyle: 'short' }) })}
          </Alert>
        )}
        {status === 'failed' && (
          <Alert variant="error" data-testid="data-export-error">
            {t('dataRights.export.failed')}
          </Alert>
        )}
        {failure && (
          <Alert variant="error" data-testid="data-export-error">
            {t('dataRights.export.error', { message: apiErrorMessage(failure) ?? t('dataRights.export.tryAgain') })}
          </Alert>
        )}
      </div>

      <div className="flex flex-wrap gap-3">
        <Button onClick={handleStart} disabled={working || download.isPending} data-testid="data-export-start">
          {working ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Download aria-hidden="true" />}
          {t('dataRights.export.button')}
        </Button>
        {status === 'ready' && exportId && (
          <Button variant="outline" onClick={() => download.mutate({ id: exportId })} disabled={download.isPending} data-testid="data-export-download">
            {t('dataRights.export.downloadAgain')}
          </Button>
        )}
      </div>
    </div>
  );
}

function EraseAccountPanel() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [open, setOpen] = useState(false);
  return (
    <div className="grid gap-4 rounded-2xl border border-red-200 bg-red-50/40 px-4 py-5 sm:px-5" data-testid="erase-account">
      <div className="flex min-w-0 items-start gap-3">
        <span className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-red-100 text-destructive sm:inline-flex">
          <Trash2 aria-hidden="true" className="size-4" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold text-foreground">{t('dataRights.erase.title')}</h3>
          <p className="mt-1 text-sm text-muted-foreground">{t('dataRights.erase.description')}</p>
          <p className="mt-2 text-sm text-muted-foreground">{t('dataRights.erase.billingNote')}</p>
        </div>
      </div>
      <div>
        <Button
          variant="outline"
          className="border-red-300 text-destructive hover:border-destructive/60 hover:bg-destructive/10"
          disabled={!profile.data}
          onClick={() => setOpen(true)}
          data-testid="erase-account-open"
        >
          <Trash2 aria-hidden="true" />
          {t('dataRights.erase.button')}
        </Button>
      </div>
      {profile.data && <EraseAccountDialog open={open} onOpenChange={setOpen} username={profile.data.username} />}
    </div>
  );
}
