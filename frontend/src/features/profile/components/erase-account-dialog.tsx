import { useId, useState, type FormEvent } from 'react';
import { confirmsErasure, ERASE_CONFIRMATION_WORD } from '@life/contracts';
import { LoaderCircle, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { apiErrorMessage } from '@/lib/api-client';
import { useEraseAccount } from '../api/erase-account';

const CONSEQUENCE_COUNT = 4;

export interface EraseAccountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  username: string;
}

/**
 * The typed confirmation of 'Eliminar mi cuenta': the button only works once the person has
 * typed their username (or ELIMINAR), the same rule the server checks.
 */
export function EraseAccountDialog({ open, onOpenChange, username }: EraseAccountDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const [typed, setTyped] = useState('');
  const erase = useEraseAccount();
  const confirmed = confirmsErasure(typed, username);

  function handleOpenChange(next: boolean) {
    if (erase.isPending) return;
    if (!next) {
      setTyped('');
      erase.reset();
    }
    onOpenChange(next);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed || erase.isPending) return;
    erase.mutate({ confirm: typed.trim() });
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent data-testid="erase-dialog" className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{t('dataRights.erase.dialogTitle')}</DialogTitle>
          <DialogDescription>{t('dataRights.erase.dialogDescription')}</DialogDescription>
        </DialogHeader>
        <ul className="grid list-disc gap-1.5 pl-5 text-sm text-foreground" data-testid="erase-consequences">
          {Array.from({ length: CONSEQUENCE_COUNT }, (_, i) => (
            <li key={i}>{t(`dataRights.erase.consequences.${i}`)}</li>
          ))}
        </ul>
        <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <label htmlFor={`${id}-confirm`} className="text-sm font-medium text-foreground">
              {t('dataRights.erase.confirmLabel', { username, word: ERASE_CONFIRMATION_WORD })}
            </label>
            <Input
              id={`${id}-confirm`}
              name="confirm"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              disabled={erase.isPending}
              data-testid="erase-confirm-input"
            />
          </div>
          {erase.isError && (
            <Alert variant="error" data-testid="erase-error">
              {t('dataRights.erase.error', { message: apiErrorMessage(erase.error) ?? t('dataRights.erase.tryAgain') })}
            </Alert>
          )}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={erase.isPending} data-testid="erase-cancel">
                {t('dataRights.erase.cancel')}
              </Button>
            </DialogClose>
            <Button
              type="submit"
              className="bg-destructive text-white hover:bg-destructive/90"
              disabled={!confirmed || erase.isPending}
              data-testid="erase-confirm"
            >
              {erase.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Trash2 aria-hidden="true" />}
              {erase.isPending ? t('dataRights.erase.erasing') : t('dataRights.erase.confirm')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
