import { useEffect, useId, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

/** A read-only value with a copy button. The text is selected on focus, for when the clipboard is not available. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      // No clipboard (an insecure origin, a refused permission): the field is still there to select by hand.
      console.error('No se pudo copiar al portapapeles', error);
      document.getElementById(id)?.focus();
    }
  }

  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 font-mono text-sm sm:text-xs"
          data-testid={testId}
        />
        <Button
          variant="outline"
          size="icon"
          className="size-11 shrink-0 rounded-xl"
          aria-label={copied ? t('oauth.admin.secret.copied') : t('oauth.admin.secret.copy', { field: label })}
          title={copied ? t('oauth.admin.secret.copied') : t('oauth.admin.secret.copy', { field: label })}
          onClick={() => void copy()}
          data-testid={`${testId}-copy`}
        >
          {copied ? <Check aria-hidden="true" className="text-green-700" /> : <Copy aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}
