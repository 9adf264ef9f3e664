import { useState } from 'react';
import { Menu } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LazyOverlay, SideMenuSheet, useOverlayTrigger } from './header-overlays-loader';

/** Hamburger; its left sheet with the signed-in user's pages (header-overlays.tsx) is loaded after the first paint. */
export function SideMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { mounted, contentId, triggerProps } = useOverlayTrigger(open);
  return (
    <>
      <Button variant="ghost" size="icon" aria-label={t('header.openMenu')} data-testid="menu-button" {...triggerProps} onClick={() => setOpen(!open)}>
        <Menu aria-hidden="true" />
      </Button>
      {mounted && (
        <LazyOverlay>
          <SideMenuSheet open={open} onOpenChange={setOpen} contentId={contentId} />
        </LazyOverlay>
      )}
    </>
  );
}
