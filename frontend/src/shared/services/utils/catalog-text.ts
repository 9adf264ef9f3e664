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
  return shippedText(`services.catalogDescriptions.${service.service_name}`, service.description, i18n);
}

/**
 * A text stored in the database that Life ships in Spanish (`key` in es.json holds the same words):
 * in the language on screen while it is unchanged; as written once an admin rewrote it.
 */
export function shippedText(key: string, stored: string | null | undefined, i18n: I18n): string {
  const text = stored?.trim() ?? '';
  const shipped: unknown = i18n.getResource(SOURCE_LANGUAGE, 'translation', key);
  if (!text || typeof shipped !== 'string' || shipped !== text) return text;
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
