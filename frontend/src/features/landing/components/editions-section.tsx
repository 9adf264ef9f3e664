import { useTranslation } from 'react-i18next';
import { useEditions } from '../api/get-editions';
import { EditionCard, type EditionCardProps } from './edition-card';

export function EditionsSection({ onBuy }: Pick<EditionCardProps, 'onBuy'>) {
  const { t } = useTranslation();
  const { data: editions } = useEditions();
  return (
    <section aria-labelledby="editions-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="editions-title" className="text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">
          {t('landing.editions.title')}
        </h2>
        <p className="mt-3 text-base text-muted-foreground">{t('landing.editions.subtitle')}</p>
      </div>
      <ul className="mt-10 flex flex-wrap justify-center gap-6">
        {editions.map((edition, index) => (
          <EditionCard key={edition.id} edition={edition} onBuy={onBuy} featured={index === 0} />
        ))}
      </ul>
    </section>
  );
}
