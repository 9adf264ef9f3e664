import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { BenchContext, CustomResult, Scenario } from './scenarios.js';

/** Where CI and the e2e suite find Chromium; `CHROMIUM_PATH` overrides it. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The goal: JavaScript before the first paint of `/`, gzipped. */
export const LANDING_JS_GOAL_KB = 150;
const LOADS = 3;

interface LoadedScript {
  url: string;
  /** Bytes on the wire for the body (as the server encoded it), from Resource Timing. */
  encodedBytes: number;
  responseEnd: number;
}

interface PageLoad {
  firstContentfulPaint: number;
  scripts: LoadedScript[];
}

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

/** One cold load of `/` in a fresh browser context: the scripts it fetched and when it first painted. */
async function loadLanding(browser: import('playwright-core').Browser, appUrl: string): Promise<PageLoad> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}/`, { waitUntil: 'networkidle' });
    return await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      // Resource Timing entries (the DOM type; this code runs in the page).
      const entries = performance.getEntriesByType('resource') as unknown as { name: string; encodedBodySize: number; responseEnd: number }[];
      const scripts = entries
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, encodedBytes: entry.encodedBodySize, responseEnd: entry.responseEnd }));
      return { firstContentfulPaint: paint ? paint.startTime : Number.NaN, scripts };
    });
  } finally {
    await context.close();
  }
}

/**
 * `landing-js`: the JavaScript a first visit to `/` downloads before its first paint, in real
 * Chromium. Each script's size is counted gzipped (the issue's unit, whatever the server sends)
 * and as transferred; scripts fetched after the first paint (the editions' data, a lazily
 * loaded dialog) are listed apart. The median of three cold loads.
 */
export const landingScenario: Scenario<void> = {
  name: 'landing-js',
  description: `JavaScript of a first visit to / before its first paint, gzipped, in Chromium (goal ≤ ${LANDING_JS_GOAL_KB} kB)`,
  timeoutMs: 120_000,
  async run(ctx: BenchContext): Promise<CustomResult> {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const gzipped = new Map<string, number>();
    const gzipOf = async (url: string) => {
      if (!gzipped.has(url)) gzipped.set(url, gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length);
      return gzipped.get(url)!;
    };
    try {
      const loads: { beforePaint: number; wire: number; after: number; files: number; fcp: number }[] = [];
      for (let i = 0; i < LOADS; i++) {
        const load = await loadLanding(browser, ctx.appUrl);
        if (!Number.isFinite(load.firstContentfulPaint)) throw new Error('Chromium reported no first-contentful-paint for /');
        const before = load.scripts.filter((script) => script.responseEnd <= load.firstContentfulPaint);
        const after = load.scripts.filter((script) => script.responseEnd > load.firstContentfulPaint);
        let beforePaint = 0;
        for (const script of before) beforePaint += await gzipOf(script.url);
        let afterPaint = 0;
        for (const script of after) afterPaint += await gzipOf(script.url);
        loads.push({
          beforePaint,
          wire: before.reduce((sum, script) => sum + script.encodedBytes, 0),
          after: afterPaint,
          files: before.length,
          fcp: load.firstContentfulPaint,
        });
      }
      loads.sort((a, b) => a.beforePaint - b.beforePaint);
      const median = loads[Math.floor(loads.length / 2)]!;
      return {
        opsPerSec: kB(median.beforePaint),
        unit: 'kB JS (gz)',
        notes: [
          `${median.files} scripts before the first paint of /, ${kB(median.beforePaint)} kB gzipped (goal ≤ ${LANDING_JS_GOAL_KB} kB), ` +
            `${kB(median.wire)} kB as the server sent them; ${kB(median.after)} kB gzipped more after it; first contentful paint at ${Math.round(median.fcp)} ms (median of ${LOADS} cold loads).`,
        ],
      };
    } finally {
      await browser.close();
    }
  },
};
