import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { useSiteInfo } from '../api/get-site-info';

type Field = 'name' | 'taxId' | 'address' | 'email';

const PLACEHOLDER_WIDTH: Record<Field, string> = {
  name: 'w-32',
  taxId: 'w-20',
  address: 'w-48',
  email: 'w-40',
};

/**
 * One company detail from GET /api/site, inline in legal text. While it loads (or if
 * the server cannot be reached) a neutral grey bar stands in for it.
 */
export function CompanyField({ field }: { field: Field }) {
  const { t } = useTranslation();
  const { data, isPending } = useSiteInfo();
  const value = data?.company[field];

  if (!value) {
    return (
      <Skeleton
        className={`h-[1em] ${PLACEHOLDER_WIDTH[field]} ${isPending ? '' : 'animate-none'}`}
        aria-label={isPending ? t('legal.loadingCompany') : t('common.unavailable')}
        role="img"
        data-testid={`company-${field}-placeholder`}
      />
    );
  }
  if (field === 'email') {
    return (
      <a href={`mailto:${value}`} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="company-email">
        {value}
      </a>
    );
  }
  return (
    <span className="font-medium text-foreground" data-testid={`company-${field}`}>
      {value}
    </span>
  );
}
