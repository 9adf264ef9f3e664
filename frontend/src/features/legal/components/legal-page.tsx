import type { ReactElement, ReactNode } from 'react';
import { Languages } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { CompanyField } from './company-field';

/**
 * Legal texts are Spanish-only: the article is marked lang="es" whatever the UI language,
 * and in any other language a notice in that language says so first.
 */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const spanish = i18n.language === 'es';
  return (
    <article lang="es" className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16" data-testid="legal-page">
      {!spanish && (
        <p
          lang={i18n.language}
          className="mb-8 flex items-start gap-2 rounded-2xl border bg-muted px-4 py-3 text-sm text-muted-foreground"
          data-testid="legal-spanish-only"
        >
          <Languages aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('legal.spanishOnly')}
        </p>
      )}
      <header className="border-b pb-6">
        <h1 className="text-3xl font-bold tracking-tight text-foreground sm:text-4xl">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground" data-testid="legal-last-updated">
          {t('legal.lastUpdated')}
        </p>
      </header>
      <div className="mt-8 space-y-5 text-base leading-relaxed text-foreground/85 [&_h2]:pt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground [&_li]:pl-1 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
        {children}
      </div>
    </article>
  );
}

/** Components the legal strings may embed as <company/>, <taxId/>, <address/> and <email/>. */
export const companyComponents: Record<string, ReactElement> = {
  company: <CompanyField field="name" />,
  taxId: <CompanyField field="taxId" />,
  address: <CompanyField field="address" />,
  email: <CompanyField field="email" />,
};

/** A paragraph whose text comes from `i18nKey` and may embed company details or links. */
export function LegalText({ i18nKey, components = {} }: { i18nKey: string; components?: Record<string, ReactElement> }) {
  return <Trans i18nKey={i18nKey} components={{ ...companyComponents, ...components }} />;
}
