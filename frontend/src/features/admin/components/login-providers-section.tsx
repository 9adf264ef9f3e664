import { useEffect, useState } from 'react';
import type { LoginProviderDto } from '@life/contracts';
import { ClipboardCheck, Pencil, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Button } from '@/components/ui/button';
import { truncate } from '@/lib/truncate';
import { catalogType, shippedText } from '@/shared/services/utils/catalog-text';
import { useDeleteLoginProvider } from '../api/delete-login-provider';
import { useLoginProviders } from '../api/get-login-providers';
import { LoginProviderFormDialog } from './login-provider-form-dialog';
import { ProviderSetupDialog, type ProviderSetupDialogProps } from './provider-setup-dialog';

const COLUMN_COUNT = 4;

/**
 * Admin section 'Login Providers'. Spec section 8: load, save and delete failures are
 * only logged (console.error), never shown.
 */
export function LoginProvidersSection() {
  const { t, i18n } = useTranslation();
  const providers = useLoginProviders();
  const remove = useDeleteLoginProvider();
  const [form, setForm] = useState<{ open: boolean; provider?: LoginProviderDto }>({ open: false });
  const [setup, setSetup] = useState<{ open: boolean; target: ProviderSetupDialogProps['target'] }>({ open: false, target: null });

  useEffect(() => {
    if (providers.error) console.error('Error al obtener los login providers', providers.error);
  }, [providers.error]);

  function handleDelete(provider: LoginProviderDto) {
    if (!window.confirm(t('admin.providers.confirmDelete'))) return;
    remove.mutate({ id: provider.id });
  }

  // Keep the provider while the dialog animates closed, so its title does not flip.
  const closeForm = (open: boolean) => setForm((current) => ({ ...current, open }));

  return (
    // Bottom padding keeps the last row clear of the floating add button.
    <div className="max-w-4xl pt-2 pb-24">
      <AdminTable pinLastColumn data-testid="providers-table" aria-label={t('admin.providers.tableLabel')}>
        <thead>
          <tr>
            <Th>{t('admin.providers.columns.name')}</Th>
            <Th>{t('admin.providers.columns.type')}</Th>
            <Th>{t('admin.providers.columns.description')}</Th>
            <Th className="w-px text-right">{t('admin.providers.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {providers.isPending ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.providers.loading')}</TableMessageRow>
          ) : providers.isError || providers.data.length === 0 ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.providers.empty')}</TableMessageRow>
          ) : (
            providers.data.map((provider) => {
              // Life's own descriptions and types in the language on screen; an admin's text as written.
              const description = shippedText(`admin.providers.shippedDescriptions.${provider.service_name}`, provider.description, i18n);
              return (
                <Tr key={provider.id} data-testid="provider-row">
                  <Td className="font-medium whitespace-nowrap">{provider.service_name}</Td>
                  <Td className="whitespace-nowrap text-muted-foreground">{catalogType(provider.service_type, i18n)}</Td>
                  <Td className="text-muted-foreground" title={description || undefined} data-testid="provider-description">
                    {description ? truncate(description) : <span className="italic">{t('admin.providers.noDescription')}</span>}
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-9 text-muted-foreground hover:text-foreground"
                      aria-label={t('admin.setup.open', { name: provider.service_name })}
                      title={t('admin.setup.open', { name: provider.service_name })}
                      onClick={() =>
                        setSetup({
                          open: true,
                          target: { kind: 'login-provider', id: provider.id, name: provider.service_name, callbackUrl: provider.callback_url },
                        })
                      }
                      data-testid="provider-setup"
                    >
                      <ClipboardCheck aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-9 text-muted-foreground hover:text-foreground"
                      aria-label={t('admin.providers.edit')}
                      title={t('admin.providers.edit')}
                      onClick={() => setForm({ open: true, provider })}
                      data-testid="provider-edit"
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-9 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                      aria-label={t('admin.providers.delete')}
                      title={t('admin.providers.delete')}
                      onClick={() => handleDelete(provider)}
                      data-testid="provider-delete"
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </Td>
                </Tr>
              );
            })
          )}
        </tbody>
      </AdminTable>

      <Button
        size="icon"
        className="fixed right-6 bottom-6 z-10 size-14 shadow-lift sm:right-10 sm:bottom-10 [&_svg]:size-6"
        aria-label={t('admin.providers.add')}
        title={t('admin.providers.add')}
        onClick={() => setForm({ open: true })}
        data-testid="provider-add"
      >
        <Plus aria-hidden="true" />
      </Button>

      <LoginProviderFormDialog open={form.open} onOpenChange={closeForm} provider={form.provider} />
      <ProviderSetupDialog open={setup.open} onOpenChange={(open) => setSetup((current) => ({ ...current, open }))} target={setup.target} />
    </div>
  );
}
