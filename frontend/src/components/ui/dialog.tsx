import { useRef, type ComponentProps } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;
export const DialogPortal = DialogPrimitive.Portal;

/**
 * Radix gives the focus back only to a `DialogTrigger`. Dialogs opened from elsewhere (a table's
 * edit button, the gear, the landing cart) would leave it on the page body: this remembers what
 * had the focus when the dialog opened and focuses it again when it closes.
 */
export function useFocusReturn({ onOpenAutoFocus, onCloseAutoFocus }: { onOpenAutoFocus?: (event: Event) => void; onCloseAutoFocus?: (event: Event) => void }) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Runs before the focus moves in, so the active element is still the one that opened the dialog.
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      const target = opener.current;
      if (event.defaultPrevented || !target?.isConnected) return;
      event.preventDefault();
      target.focus();
    },
  };
}

export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn('fixed inset-0 z-50 bg-foreground/40 backdrop-blur-[2px] animate-overlay-in', className)}
      {...props}
    />
  );
}

export function CloseButton({ className, ...props }: ComponentProps<typeof DialogPrimitive.Close>) {
  const { t } = useTranslation();
  return (
    <DialogPrimitive.Close
      aria-label={t('common.close')}
      className={cn(
        'inline-flex size-9 cursor-pointer items-center justify-center rounded-full text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-5" />
    </DialogPrimitive.Close>
  );
}

/**
 * A centred modal card. Pass `aria-describedby={undefined}` when there is no DialogDescription.
 * Dialogs opened over the admin panel (z-70) pass a higher z-index in both `className` and `overlayClassName`.
 */
export function DialogContent({
  className,
  overlayClassName,
  children,
  showCloseButton = true,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { showCloseButton?: boolean; overlayClassName?: string }) {
  const focusReturn = useFocusReturn({ onOpenAutoFocus, onCloseAutoFocus });
  return (
    <DialogPortal>
      <DialogOverlay className={overlayClassName} />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-5 overflow-y-auto rounded-3xl border bg-card p-6 shadow-lift animate-zoom-in focus:outline-none sm:p-7',
          className,
        )}
        {...props}
        {...focusReturn}
      >
        {children}
        {showCloseButton && <CloseButton className="absolute top-4 right-4" />}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pr-8', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-xl font-semibold tracking-tight text-foreground', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
