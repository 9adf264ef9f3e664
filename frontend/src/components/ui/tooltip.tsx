import type { ComponentProps, ReactNode } from 'react';
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import { cn } from '@/lib/utils';

export const TooltipProvider = TooltipPrimitive.Provider;

/**
 * A short hint shown on hover/focus. The trigger keeps its own accessible name. Controls on every
 * page (the header) use `LazyTooltip`, which loads this module after the first paint.
 */
export function Tooltip({
  content,
  children,
  side = 'bottom',
  className,
  open,
  onOpenChange,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: ComponentProps<typeof TooltipPrimitive.Content>['side'];
  className?: string;
  /** Controlled use: e.g. kept closed while the dialog its trigger opens is showing. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  // Its own provider (the app has none, so Radix is not loaded before the first paint): the delay
  // the whole app used. A test's or page's outer TooltipProvider is overridden by it.
  return (
    <TooltipPrimitive.Provider delayDuration={300}>
      <TooltipPrimitive.Root open={open} onOpenChange={onOpenChange}>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            side={side}
            sideOffset={6}
            className={cn('z-[60] rounded-lg bg-foreground px-2.5 py-1.5 text-xs font-medium text-background shadow-soft animate-overlay-in', className)}
          >
            {content}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
