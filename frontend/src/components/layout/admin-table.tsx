import { useEffect, useRef, useState, type ComponentProps, type ReactNode, type RefObject } from 'react';
import { cn } from '@/lib/utils';

/** Whether the element's content is wider than the element (so it scrolls sideways), kept up to date. */
function useOverflowsX(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * The admin panel sections' tables: a bordered card that scrolls sideways when the columns do not
 * fit (phones), so the panel itself never does. While it scrolls, the card is a Tab stop named
 * like the table, so it can be scrolled with the arrow keys too.
 */
/**
 * With `pinLastColumn` the last column (the row's actions) stays in view at the right edge while
 * the rest scrolls under it, so a phone reaches the actions without scrolling sideways.
 */
const PINNED_LAST_COLUMN =
  '[&_tr>:last-child]:sticky [&_tr>:last-child]:right-0 [&_td:last-child]:bg-card [&_th:last-child]:bg-[color-mix(in_oklab,var(--color-muted)_60%,var(--color-card))] [&_tr>:last-child]:shadow-[-10px_0_10px_-10px_rgb(0_0_0/0.25)]';

/** With `pinFirstColumn` the first column (what the row is about) stays at the left edge while the rest scrolls. */
const PINNED_FIRST_COLUMN =
  '[&_tr>:first-child]:sticky [&_tr>:first-child]:left-0 [&_tr>:first-child]:z-[1] [&_td:first-child]:bg-card [&_th:first-child]:bg-[color-mix(in_oklab,var(--color-muted)_60%,var(--color-card))] [&_tr>:first-child]:shadow-[10px_0_10px_-10px_rgb(0_0_0/0.25)]';

export function AdminTable({
  className,
  children,
  pinLastColumn = false,
  pinFirstColumn = false,
  ...props
}: ComponentProps<'table'> & { pinLastColumn?: boolean; pinFirstColumn?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const scrollable = useOverflowsX(ref);
  const named = !!(props['aria-label'] || props['aria-labelledby']);
  return (
    <div
      ref={ref}
      className="overflow-x-auto rounded-2xl border bg-card shadow-soft"
      tabIndex={scrollable ? 0 : undefined}
      // A group, not a region: the section around it is already the landmark with this name.
      role={scrollable && named ? 'group' : undefined}
      aria-label={scrollable ? props['aria-label'] : undefined}
      aria-labelledby={scrollable ? props['aria-labelledby'] : undefined}
      data-scrollable={scrollable ? 'true' : undefined}
    >
      <table
        className={cn(
          'w-full min-w-[36rem] border-collapse text-left text-sm',
          scrollable && pinLastColumn && PINNED_LAST_COLUMN,
          scrollable && pinFirstColumn && PINNED_FIRST_COLUMN,
          className,
        )}
        data-pinned-actions={scrollable && pinLastColumn ? 'true' : undefined}
        data-pinned-first={scrollable && pinFirstColumn ? 'true' : undefined}
        {...props}
      >
        {children}
      </table>
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn('border-b bg-muted/60 px-4 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-muted-foreground uppercase', className)}
      {...props}
    />
  );
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('border-b px-4 py-3 align-middle text-foreground group-last:border-b-0', className)} {...props} />;
}

export function Tr({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('group transition-colors hover:bg-muted/40', className)} {...props} />;
}

/** A row spanning the whole table, for "loading" and "nothing here yet". */
export function TableMessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-muted-foreground">
        {children}
      </td>
    </tr>
  );
}
