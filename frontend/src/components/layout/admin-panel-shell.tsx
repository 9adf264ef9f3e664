import { useState, type ComponentType } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CloseButton } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';

/** One entry of the admin registry: features plug their section body in as `Component`. */
export interface AdminSection<TId extends string = string> {
  id: TId;
  /** Label in the left menu. */
  navLabelKey: string;
  /** Heading shown above the section body. */
  titleKey: string;
  icon: LucideIcon;
  /** Section body; omitted while the section only has its title. */
  Component?: ComponentType;
  /** Shown next to the label, e.g. a count of things waiting. */
  Badge?: ComponentType;
}

export interface AdminPanelShellProps<TId extends string> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sections: readonly AdminSection<TId>[];
  /** Views reached from a link in the panel's header instead of the menu (the menu keeps its five sections). */
  headerViews?: readonly AdminSection<TId>[];
  defaultSectionId: TId;
}

/**
 * Full-screen admin overlay: a 240 px menu and the selected section. Built on a radix
 * Dialog, so focus is trapped inside and Escape closes it. The selection resets to the
 * default each time the panel opens (the content unmounts on close).
 */
export function AdminPanelShell<TId extends string>({ open, onOpenChange, sections, headerViews = [], defaultSectionId }: AdminPanelShellProps<TId>) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        {/* On phones the 240 px menu leaves little room: the panel scrolls sideways instead of squeezing the section. */}
        <DialogPrimitive.Content
          data-testid="admin-panel"
          aria-describedby={undefined}
          className="fixed inset-0 z-[70] flex overflow-x-auto bg-background animate-overlay-in focus:outline-none"
        >
          <AdminPanelBody sections={sections} headerViews={headerViews} defaultSectionId={defaultSectionId} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function AdminPanelBody<TId extends string>({
  sections,
  headerViews = [],
  defaultSectionId,
}: Pick<AdminPanelShellProps<TId>, 'sections' | 'headerViews' | 'defaultSectionId'>) {
  const { t } = useTranslation();
  const [selectedId, setSelectedId] = useState<TId>(defaultSectionId);
  const selected = sections.find((section) => section.id === selectedId) ?? headerViews.find((view) => view.id === selectedId) ?? sections[0];
  const SectionBody = selected?.Component;

  return (
    <>
      {/* Fixed, so it stays in reach when the panel scrolls sideways on narrow screens (where the title sits below it). */}
      <CloseButton data-testid="admin-panel-close" className="fixed top-5 right-4 z-10 bg-background/90 sm:right-6" />
      <aside className="flex w-[240px] shrink-0 flex-col border-r bg-card" data-testid="admin-menu">
        <DialogPrimitive.Title className="px-6 pt-6 pb-4 text-lg font-semibold tracking-tight text-foreground">{t('admin.title')}</DialogPrimitive.Title>
        <nav aria-label={t('admin.sectionsNav')} className="flex-1 overflow-y-auto px-3 pb-6">
          <ul className="grid gap-1">
            {sections.map(({ id, navLabelKey, icon: Icon }) => {
              const isSelected = id === selected?.id;
              return (
                <li key={id}>
                  <button
                    type="button"
                    data-testid={`admin-nav-${id}`}
                    aria-current={isSelected ? 'page' : undefined}
                    onClick={() => setSelectedId(id)}
                    className={cn(
                      'flex w-full cursor-pointer items-center gap-3 rounded-xl px-3 py-2.5 text-left text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
                      isSelected && 'bg-secondary text-secondary-foreground hover:bg-secondary hover:text-secondary-foreground',
                    )}
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0" />
                    <span className="min-w-0">{t(navLabelKey)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      </aside>
      <section
        className="flex min-w-[20rem] flex-1 flex-col"
        aria-labelledby="admin-section-title"
        data-testid={selected ? `admin-section-${selected.id}` : undefined}
      >
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 pt-16 pb-2 sm:pt-6 sm:pr-16 sm:pl-10">
          <h3 id="admin-section-title" className="pt-1 text-2xl font-semibold tracking-tight text-foreground">
            {selected ? t(selected.titleKey) : null}
          </h3>
          {headerViews.length > 0 && (
            <div className="flex flex-wrap gap-2">
              {headerViews.map(({ id, navLabelKey, icon: Icon, Badge }) => (
                <button
                  key={id}
                  type="button"
                  data-testid={`admin-header-${id}`}
                  aria-current={id === selected?.id ? 'page' : undefined}
                  onClick={() => setSelectedId(id)}
                  className={cn(
                    'inline-flex h-9 cursor-pointer items-center gap-2 rounded-full border border-input bg-card px-4 text-sm font-medium text-foreground shadow-xs transition-colors hover:bg-muted',
                    id === selected?.id && 'border-transparent bg-secondary text-secondary-foreground hover:bg-secondary',
                  )}
                >
                  <Icon aria-hidden="true" className="size-4 shrink-0" />
                  {t(navLabelKey)}
                  {Badge && <Badge />}
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="min-w-0 flex-1 overflow-auto px-4 pb-10 sm:px-10">{SectionBody && <SectionBody />}</div>
      </section>
    </>
  );
}
