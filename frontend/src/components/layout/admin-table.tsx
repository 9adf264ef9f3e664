import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** The admin panel sections' tables: a bordered card that scrolls sideways when the columns do not fit. */
export function AdminTable({ className, children, ...props }: ComponentProps<'table'>) {
  return (
    <div className="overflow-x-auto rounded-2xl border bg-card shadow-soft">
      <table className={cn('w-full min-w-[36rem] border-collapse text-left text-sm', className)} {...props}>
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
