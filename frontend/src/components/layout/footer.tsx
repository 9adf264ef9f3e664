import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

const LEGAL_LINKS = [
  { to: '/privacy-policy', labelKey: 'footer.privacy' },
  { to: '/terms-of-use', labelKey: 'footer.terms' },
  { to: '/legal', labelKey: 'footer.legal' },
  { to: '/cookies-policy', labelKey: 'footer.cookies' },
] as const;

const linkClass = 'rounded text-sm text-muted-foreground transition-colors hover:text-foreground';

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-border/70 bg-card/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <p className="shrink-0 text-sm font-medium whitespace-nowrap text-foreground" data-testid="footer-copyright">
          {t('footer.copyright', { year })}
        </p>
        <nav aria-label={t('footer.legalNav')}>
          <ul className="flex flex-wrap gap-x-6 gap-y-3">
            {LEGAL_LINKS.map(({ to, labelKey }) => (
              <li key={to}>
                <Link to={to} className={linkClass}>
                  {t(labelKey)}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/contact" className={linkClass} data-testid="footer-contact">
                {t('footer.contact')}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
