import type { ComponentProps, ReactNode } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { CircleAlert, CircleCheck, Info, TriangleAlert, type LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

const alertVariants = cva('flex items-start gap-3 rounded-2xl border px-4 py-3 text-sm leading-relaxed', {
  variants: {
    variant: {
      error: 'border-red-200 bg-red-50 text-red-800',
      success: 'border-green-200 bg-green-50 text-green-800',
      warning: 'border-amber-200 bg-amber-50 text-amber-900',
      info: 'border-sky-200 bg-sky-50 text-sky-900',
    },
  },
  defaultVariants: { variant: 'error' },
});

const ICONS: Record<NonNullable<VariantProps<typeof alertVariants>['variant']>, LucideIcon> = {
  error: CircleAlert,
  success: CircleCheck,
  warning: TriangleAlert,
  info: Info,
};

export type AlertProps = ComponentProps<'div'> &
  VariantProps<typeof alertVariants> & {
    /** Rendered at the end of the banner, e.g. a dismiss button. */
    action?: ReactNode;
  };

/**
 * A message banner. Errors are announced at once (role=alert); success and warning
 * messages politely (role=status). Pass `role` to override.
 */
export function Alert({ className, variant = 'error', action, children, role, ...props }: AlertProps) {
  const Icon = ICONS[variant ?? 'error'];
  return (
    <div role={role ?? (variant === 'error' ? 'alert' : 'status')} data-slot="alert" className={cn(alertVariants({ variant }), className)} {...props}>
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1 break-words">{children}</div>
      {action}
    </div>
  );
}
