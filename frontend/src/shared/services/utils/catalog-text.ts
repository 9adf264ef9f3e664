import type { ExternalServiceDto } from '@life/contracts';
import type { i18n as I18n } from 'i18next';
import { SOURCE_LANGUAGE } from '@/i18n/i18n';

/**
 * The description a dashboard card and the admin tables show. The catalog stores one text per service, in Spanish,
 * and admins may rewrite it. While it is still the text Life ships with (the same as es.json's
 * `services.catalogDescriptions.<service_name>`), the card shows that text in the language on
 * screen; a text an admin wrote is shown as written.
 */
export function catalogDescription(service: Pick<ExternalServiceDto, 'service_name' | 'description'>, i18n: I18n): string {
  const stored = service.description?.trim() ?? '';
  const key = `services.catalogDescriptions.${service.service_name}`;
  const shipped: unknown = i18n.getResource(SOURCE_LANGUAGE, 'translation', key);
  if (!stored || typeof shipped !== 'string' || shipped !== stored) return stored;
  return i18n.t(key);
}

/**
 * The type a dashboard card and the admin tables show ('Tipo: …'). Life's own types (`services.catalogTypes` in es.json,
 * whose keys are the stored Spanish values) are shown in the language on screen; a type an admin
 * wrote is shown as written.
 */
export function catalogType(serviceType: string, i18n: I18n): string {
  const key = `services.catalogTypes.${serviceType}`;
  return serviceType && typeof i18n.getResource(SOURCE_LANGUAGE, 'translation', key) === 'string' ? i18n.t(key) : serviceType;
}
