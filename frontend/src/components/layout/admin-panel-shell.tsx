import { createContext, useContext, useState, type ComponentType } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CloseButton, useFocusReturn } from '@/components/ui/dialog';
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

/** Lets a section body open another section or view (e.g. a link to Salud). */
const AdminNavigationContext = createContext<(id: string) => void>(() => undefined);

export function useOpenAdminSection(): (id: string) => void {
  return useContext(AdminNavigationContext);
}

/**
 * Full-screen admin overlay: a 240 px menu and the selected section. Built on a radix
 * Dialog, so focus is trapped inside, Escape closes it and the focus goes back to the gear.
 * The selection resets to the default each time the panel opens (the content unmounts on
 * close). Below the `lg` breakpoint the menu becomes a bar of section buttons above the
 * section and the whole panel scrolls vertically, never sideways (tables scroll in their card).
 */
export function AdminPanelShell<TId extends string>({ open, onOpenChange, sections, headerViews = [], defaultSectionId }: AdminPanelShellProps<TId>) {
  // The gear is not a DialogTrigger: give it the focus back on close.
  const focusReturn = useFocusReturn({});
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          data-testid="admin-panel"
          aria-describedby={undefined}
          className="fixed inset-0 z-[70] flex flex-col overflow-x-hidden overflow-y-auto bg-background animate-overlay-in focus:outline-none lg:flex-row lg:overflow-hidden"
          {...focusReturn}
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
      {/* In the top bar on small screens (it scrolls away with it; Escape closes too), fixed in the corner beside the side menu. */}
      <CloseButton data-testid="admin-panel-close" className="absolute top-4 right-3 z-10 bg-background/90 lg:fixed lg:top-5 lg:right-6" />
      <aside className="flex w-full shrink-0 flex-col border-b bg-card lg:w-[240px] lg:border-r lg:border-b-0" data-testid="admin-menu">
        <DialogPrimitive.Title className="px-4 pt-5 pr-16 pb-3 text-lg font-semibold tracking-tight text-foreground sm:px-6 lg:pt-6 lg:pb-4">
          {t('admin.title')}
        </DialogPrimitive.Title>
        <nav aria-label={t('admin.sectionsNav')} className="px-3 pb-4 sm:px-5 lg:flex-1 lg:overflow-y-auto lg:px-3 lg:pb-6">
          <ul className="flex flex-wrap gap-2 lg:grid lg:gap-1">
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
                      'flex cursor-pointer items-center gap-2 rounded-full border border-input px-3 py-1.5 text-left text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground lg:w-full lg:gap-3 lg:rounded-xl lg:border-transparent lg:py-2.5',
                      isSelected && 'border-transparent bg-secondary text-secondary-foreground hover:bg-secondary hover:text-secondary-foreground',
                    )}
                  >
                    {/* Icons make way for the labels on phones, so the buttons take fewer rows. */}
                    <Icon aria-hidden="true" className="size-4 shrink-0 max-sm:hidden" />
                    <span className="min-w-0">{t(navLabelKey)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      </aside>
      <section
        className="flex min-w-0 flex-1 flex-col"
        aria-labelledby="admin-section-title"
        data-testid={selected ? `admin-section-${selected.id}` : undefined}
      >
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 pt-5 pb-2 sm:px-10 sm:pt-6 lg:pr-16">
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
        <div className="min-w-0 flex-1 px-4 pb-10 sm:px-10 lg:overflow-auto">
          <AdminNavigationContext.Provider value={(id) => setSelectedId(id as TId)}>{SectionBody && <SectionBody />}</AdminNavigationContext.Provider>
        </div>
      </section>
    </>
  );
}
