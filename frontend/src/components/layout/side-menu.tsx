import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { House, LayoutDashboard, Menu, UserRound, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from '@/components/ui/sheet';

type MenuPath = '/' | '/dashboard' | '/profile';

const ITEMS: { to: MenuPath; labelKey: string; icon: LucideIcon }[] = [
  { to: '/', labelKey: 'sideMenu.home', icon: House },
  { to: '/dashboard', labelKey: 'sideMenu.dashboard', icon: LayoutDashboard },
  { to: '/profile', labelKey: 'sideMenu.profile', icon: UserRound },
];

/** Hamburger + left sheet (220 px) with the signed-in user's pages. */
export function SideMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t('header.openMenu')} data-testid="menu-button">
          <Menu aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent className="w-[220px]" data-testid="side-menu" aria-describedby={undefined}>
        <SheetTitle className="px-5 pt-5 pb-3 text-xs font-semibold tracking-widest text-muted-foreground uppercase">{t('sideMenu.title')}</SheetTitle>
        <nav className="px-3">
          <ul className="grid gap-1">
            {ITEMS.map(({ to, labelKey, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  onClick={() => setOpen(false)}
                  activeOptions={{ exact: true }}
                  className="flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium text-foreground transition-colors hover:bg-muted data-[status=active]:bg-secondary data-[status=active]:text-secondary-foreground"
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {t(labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}
