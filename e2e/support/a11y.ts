import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export type UiLanguage = 'es' | 'en';

/** Where the accessibility and responsive specs leave screenshots for a person to look at. */
export const SHOTS = process.env.E2E_A11Y_SHOTS_DIR ?? '/tmp/a11y-shots';

/** The app keeps a country code under `appLanguage` (frontend/src/i18n/language.ts): ES gives Spanish, US English. */
export const COUNTRY_FOR: Record<UiLanguage, string> = { es: 'ES', en: 'US' };

/** Sets the language preference before any page script runs, as the country picker would have stored it. */
export async function useLanguage(page: Page, language: UiLanguage): Promise<void> {
  await page.addInitScript((country) => localStorage.setItem('appLanguage', country), COUNTRY_FOR[language]);
}

/**
 * Waits until every finite animation (fade-ins, dialog zoom, sheet slide) has finished, so axe
 * measures colours at full opacity. Spinners loop forever and are left out.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
}

/** A violation reduced to what a person needs to find it: the rule, its impact and the offending elements. */
interface Finding {
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and axe's best practices) on the page as it is now and
 * fails softly, so one run reports every screen that has a problem, on any serious or critical
 * violation.
 */
export async function expectAccessible(page: Page, label: string, options: { include?: string } = {}): Promise<void> {
  await animationsSettled(page);
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  const findings: Finding[] = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    }));
  expect.soft(findings, `axe: ${label}`).toEqual([]);
}

/** Presses Tab until `target` has the focus (at most `max` times), the way a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The focused element shows a visible focus indicator (an outline, or a ring drawn with box-shadow). */
export async function expectFocusVisible(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const indicator = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      focusVisible: el.matches(':focus-visible'),
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
      ring: style.boxShadow !== 'none',
    };
  });
  expect(indicator.focusVisible).toBe(true);
  expect(indicator.outline || indicator.ring).toBe(true);
}
