import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

export interface AuthorizeTarget {
  name: string;
  /** The consent page to show (same origin; the CSP allows framing by 'self'). */
  url: string;
}

export interface AuthorizeAppDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: AuthorizeTarget | null;
}

/** Autorizar: the app's consent page, as a person would see it, inside a dialog over the admin panel. */
export function AuthorizeAppDialog({ open, onOpenChange, target }: AuthorizeAppDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open && !!target} onOpenChange={onOpenChange}>
      <DialogContent
        className="z-[80] h-[min(46rem,calc(100dvh-2rem))] max-w-3xl gap-4 overflow-hidden p-4 sm:p-7"
        overlayClassName="z-[80]"
        data-testid="authorize-dialog"
      >
        <DialogHeader>
          <DialogTitle>{t('oauth.admin.authorizeTitle', { name: target?.name ?? '' })}</DialogTitle>
          <DialogDescription>{t('oauth.admin.authorizeDescription')}</DialogDescription>
        </DialogHeader>
        {target && (
          <iframe
            src={target.url}
            title={t('oauth.admin.authorizeFrame', { name: target.name })}
            className="min-h-0 w-full flex-1 rounded-2xl border bg-background"
            data-testid="authorize-frame"
            onLoad={(event) => {
              // Focus lives inside the (same-origin) frame: let Escape there close the dialog too.
              event.currentTarget.contentWindow?.addEventListener('keydown', (key) => {
                if (key.key === 'Escape') onOpenChange(false);
              });
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
