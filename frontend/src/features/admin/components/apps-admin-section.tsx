import { useEffect, useState } from 'react';
import type { OAuthClientView } from '@life/contracts';
import { Ban, BadgeCheck, CircleCheck, CircleMinus, ExternalLink, LoaderCircle, Pencil, Plus, ShieldAlert, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { CLIENT_ID_MAX_LENGTH, truncate } from '@/lib/truncate';
import { cn } from '@/lib/utils';
import { authorizePageUrl, checkAuthorizePage } from '../api/check-authorize-page';
import { useDeleteOAuthClient } from '../api/delete-oauth-client';
import { useOAuthClients } from '../api/get-oauth-clients';
import { AppFormDialog } from './app-form-dialog';
import { AuthorizeAppDialog, type AuthorizeTarget } from './authorize-app-dialog';
import { reportError } from '@/lib/report-error';

const COLUMN_COUNT = 5;

/**
 * Admin section 'Aplicaciones Conectadas' (spec section 2): Nombre, Estado (Activa/Inactiva),
 * Client ID (24 characters) and Descripción (40), with edit and Autorizar (active apps only).
 * Ours besides: 'Nueva aplicación' (the secret is shown once) and delete.
 */
export function AppsAdminSection() {
  const { t } = useTranslation();
  const clients = useOAuthClients();
  const remove = useDeleteOAuthClient();
  const [form, setForm] = useState<{ open: boolean; client?: OAuthClientView; key: number }>({ open: false, key: 0 });
  const [authorizing, setAuthorizing] = useState<string | null>(null);
  // The target stays while the dialog animates closed, so its title does not flip.
  const [authorizeDialog, setAuthorizeDialog] = useState<{ open: boolean; target: AuthorizeTarget | null }>({ open: false, target: null });

  useEffect(() => {
    if (clients.error) reportError('Error cargando aplicaciones', clients.error);
  }, [clients.error]);

  function handleDelete(client: OAuthClientView) {
    if (!window.confirm(t('oauth.admin.confirmDelete'))) return;
    remove.mutate({ id: client.id });
  }

  /** Spec section 7: fetch the consent page accepting HTML, then show it in a dialog; a failure alerts. */
  async function handleAuthorize(client: OAuthClientView) {
    const url = authorizePageUrl(client);
    setAuthorizing(client.id);
    try {
      await checkAuthorizePage(url);
      setAuthorizeDialog({ open: true, target: { name: client.name, url } });
    } catch (error) {
      reportError('Error conectando al backend', error);
      window.alert(t('oauth.admin.authorizeError', { message: error instanceof Error ? error.message : String(error) }));
    } finally {
      setAuthorizing(null);
    }
  }

  // Keep the app while the dialog animates closed, so its title does not flip.
  const closeForm = (open: boolean) => setForm((current) => ({ ...current, open }));

  return (
    <div className="max-w-5xl pt-2 pb-12">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-xl text-sm text-muted-foreground">{t('oauth.admin.intro')}</p>
        <Button onClick={() => setForm((current) => ({ open: true, key: current.key + 1 }))} data-testid="app-add">
          <Plus aria-hidden="true" />
          {t('oauth.admin.add')}
        </Button>
      </div>
      {remove.isError && (
        <Alert variant="error" className="mb-4" data-testid="app-delete-error">
          {t('oauth.admin.deleteError', { message: apiErrorMessage(remove.error) ?? t('oauth.admin.form.unknownError') })}
        </Alert>
      )}
      <AdminTable pinLastColumn data-testid="apps-table" aria-label={t('oauth.admin.tableLabel')} className="min-w-[48rem]">
        <thead>
          <tr>
            <Th>{t('oauth.admin.columns.name')}</Th>
            <Th>{t('oauth.admin.columns.status')}</Th>
            <Th>{t('oauth.admin.columns.clientId')}</Th>
            <Th>{t('oauth.admin.columns.description')}</Th>
            <Th className="w-px text-right">{t('oauth.admin.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {clients.isPending ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('oauth.admin.loading')}</TableMessageRow>
          ) : clients.isError ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>
              <span data-testid="apps-load-error">{t('oauth.admin.loadError')}</span>
            </TableMessageRow>
          ) : clients.data.length === 0 ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>
              <span className="block font-medium text-foreground" data-testid="apps-empty">
                {t('oauth.admin.empty')}
              </span>
              <span className="mt-1 block">{t('oauth.admin.emptyHint')}</span>
            </TableMessageRow>
          ) : (
            clients.data.map((client) => {
              const description = client.description?.trim() ?? '';
              const busy = authorizing === client.id;
              return (
                <Tr key={client.id} data-testid="app-row" data-client-id={client.client_id} data-active={String(client.active)}>
                  <Td className="min-w-[9rem]">
                    <span className="block font-medium">{client.name}</span>
                    <span className="block text-xs break-words text-muted-foreground" data-testid="app-owner">
                      {client.developer_id
                        ? client.developer_name
                          ? t('oauth.admin.developer.by', { name: client.developer_name })
                          : t('oauth.admin.developer.byGone')
                        : t('oauth.admin.developer.company')}
                    </span>
                  </Td>
                  <Td className="whitespace-nowrap">
                    <span className={cn('inline-flex items-center gap-1.5 font-medium', client.active ? 'text-green-700' : 'text-muted-foreground')}>
                      {client.active ? <CircleCheck aria-hidden="true" className="size-4" /> : <CircleMinus aria-hidden="true" className="size-4" />}
                      {client.active ? t('oauth.admin.active') : t('oauth.admin.inactive')}
                    </span>
                    <StandingLine client={client} />
                  </Td>
                  <Td className="font-mono text-xs whitespace-nowrap text-muted-foreground" title={client.client_id}>
                    {truncate(client.client_id, CLIENT_ID_MAX_LENGTH)}
                  </Td>
                  <Td className="min-w-[14rem] text-muted-foreground" title={description || undefined}>
                    {description ? truncate(description) : <span className="italic">{t('oauth.admin.noDescription')}</span>}
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <div className="flex items-center justify-end gap-1">
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={!client.active || client.suspended || busy}
                        title={client.active ? undefined : t('oauth.admin.authorizeInactive')}
                        onClick={() => void handleAuthorize(client)}
                        data-testid="app-authorize"
                      >
                        {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <ExternalLink aria-hidden="true" />}
                        {t('oauth.admin.authorize')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-9 text-muted-foreground hover:text-foreground"
                        aria-label={t('oauth.admin.edit', { name: client.name })}
                        title={t('oauth.admin.edit', { name: client.name })}
                        onClick={() => setForm((current) => ({ ...current, open: true, client }))}
                        data-testid="app-edit"
                      >
                        <Pencil aria-hidden="true" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-9 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                        aria-label={t('oauth.admin.delete', { name: client.name })}
                        title={t('oauth.admin.delete', { name: client.name })}
                        disabled={remove.isPending && remove.variables.id === client.id}
                        onClick={() => handleDelete(client)}
                        data-testid="app-delete"
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  </Td>
                </Tr>
              );
            })
          )}
        </tbody>
      </AdminTable>

      <AppFormDialog open={form.open} onOpenChange={closeForm} client={form.client} formKey={form.key} />
      <AuthorizeAppDialog
        open={authorizeDialog.open}
        target={authorizeDialog.target}
        onOpenChange={(open) => setAuthorizeDialog((current) => ({ ...current, open }))}
      />
    </div>
  );
}

/** Verificada / Sin verificar, and Suspendida (decision 0037), under the app's Activa/Inactiva. */
function StandingLine({ client }: { client: OAuthClientView }) {
  const { t } = useTranslation();
  return (
    <span className="mt-1 flex flex-col gap-1 text-xs font-medium" data-testid="app-standing">
      {client.verified ? (
        <span className="inline-flex items-center gap-1 text-green-700" data-testid="app-verified">
          <BadgeCheck aria-hidden="true" className="size-3.5" />
          {t('oauth.admin.developer.verified')}
        </span>
      ) : (
        <span className="inline-flex items-center gap-1 text-amber-800" data-testid="app-unverified">
          <ShieldAlert aria-hidden="true" className="size-3.5" />
          {t('oauth.admin.developer.unverified')}
        </span>
      )}
      {client.suspended && (
        <span className="inline-flex items-center gap-1 text-red-700" data-testid="app-suspended">
          <Ban aria-hidden="true" className="size-3.5" />
          {t('oauth.admin.developer.suspended')}
        </span>
      )}
    </span>
  );
}
