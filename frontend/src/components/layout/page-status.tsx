import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * A centred spinner for pages that are waiting on something. `message` is read out
 * by screen readers (role=status) and shown unless `visuallyHidden`.
 */
export function PageStatus({ message, visuallyHidden = false }: { message: string; visuallyHidden?: boolean }) {
  return (
    <div role="status" className="mx-auto flex min-h-[50dvh] max-w-md flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary" data-testid="spinner" />
      <p className={cn('text-base text-muted-foreground', visuallyHidden && 'sr-only')}>{message}</p>
    </div>
  );
}
