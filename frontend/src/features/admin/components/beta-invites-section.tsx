import { useId, useState, type FormEvent } from 'react';
import { LoaderCircle, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ApiError, apiErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useCreateBetaInvite } from '../api/create-beta-invite';
import { useDeleteBetaInvite } from '../api/delete-beta-invite';
import { useBetaInvites } from '../api/get-beta-invites';

const COLUMN_COUNT = 4;

/** Admin section 'Invitaciones Beta': invite an e-mail, list and withdraw invitations. */
export function BetaInvitesSection() {
  const { t } = useTranslation();
  const id = useId();
  const invites = useBetaInvites();
  const create = useCreateBetaInvite();
  const remove = useDeleteBetaInvite();
  const [email, setEmail] = useState('');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    // The browser has already checked the e-mail format (type=email) before this runs.
    event.preventDefault();
    const value = email.trim();
    if (!value) return;
    remove.reset();
    create.mutate({ email: value }, { onSuccess: () => setEmail('') });
  }

  function handleDelete(inviteEmail: string) {
    create.reset();
    remove.mutate({ email: inviteEmail });
  }

  // The server's own words, except for a duplicate, which it explains in English.
  const addMessage = !create.isError
    ? undefined
    : create.error instanceof ApiError && create.error.code === 'already_invited'
      ? t('admin.invites.errors.alreadyInvited')
      : apiErrorMessage(create.error);
  const errors = [
    invites.isError && t('admin.invites.errors.list'),
    create.isError &&
      (addMessage ? t('common.errorWithMessage', { error: t('admin.invites.errors.add'), message: addMessage }) : t('admin.invites.errors.add')),
    remove.isError && t('admin.invites.errors.delete'),
  ].filter((message): message is string => typeof message === 'string');

  return (
    <div className="grid max-w-4xl gap-6 pt-2">
      <form onSubmit={handleSubmit} className="grid gap-2 rounded-2xl border bg-card p-5 shadow-soft">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-foreground">
          {t('admin.invites.emailLabel')}
        </label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Input
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="off"
            placeholder={t('admin.invites.emailPlaceholder')}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            data-testid="invite-email"
            className="sm:max-w-sm"
          />
          <Button type="submit" disabled={create.isPending} data-testid="invite-add" className="h-11">
            {create.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Plus aria-hidden="true" />}
            {t('admin.invites.add')}
          </Button>
        </div>
      </form>

      {errors.length > 0 && (
        <Alert variant="error" data-testid="invites-error">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </Alert>
      )}

      <AdminTable pinLastColumn data-testid="invites-table" aria-label={t('admin.invites.tableLabel')}>
        <thead>
          <tr>
            <Th>{t('admin.invites.columns.email')}</Th>
            <Th>{t('admin.invites.columns.invitedBy')}</Th>
            <Th>{t('admin.invites.columns.date')}</Th>
            <Th className="w-px text-right">{t('admin.invites.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {invites.isPending ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.invites.loading')}</TableMessageRow>
          ) : invites.isError ? null : invites.data.length === 0 ? (
            <TableMessageRow colSpan={COLUMN_COUNT}>{t('admin.invites.empty')}</TableMessageRow>
          ) : (
            invites.data.map((invite) => {
              const deleting = remove.isPending && remove.variables?.email === invite.email;
              return (
                <Tr key={invite.email} data-testid="invite-row">
                  <Td className="min-w-[12rem] font-medium [overflow-wrap:anywhere]">{invite.email}</Td>
                  <Td className="min-w-[10rem] text-muted-foreground [overflow-wrap:anywhere]">
                    {invite.invited_by?.trim() ? invite.invited_by : t('admin.invites.noInviter')}
                  </Td>
                  <Td className="whitespace-nowrap text-muted-foreground">
                    <time dateTime={invite.created_at}>{formatDateTime(invite.created_at)}</time>
                  </Td>
                  <Td className="text-right">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-9 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                      aria-label={t('admin.invites.delete')}
                      title={t('admin.invites.delete')}
                      disabled={deleting}
                      onClick={() => handleDelete(invite.email)}
                      data-testid="invite-delete"
                    >
                      {deleting ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Trash2 aria-hidden="true" />}
                    </Button>
                  </Td>
                </Tr>
              );
            })
          )}
        </tbody>
      </AdminTable>
    </div>
  );
}
