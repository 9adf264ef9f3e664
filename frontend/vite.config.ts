/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import type { IncomingMessage } from 'node:http';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

const backend = process.env.LIFE_BACKEND_URL ?? 'http://127.0.0.1:3000';

/**
 * `/login/{provider}` starts a login on the backend, but `/login/{provider}/callback`
 * opened as a page (Accept: text/html) is an SPA route: serve index.html for it,
 * like the backend does in production. Its JSON fetch (Accept: application/json) still goes to the backend.
 */
function spaCallbackBypass(req: IncomingMessage): string | undefined {
  const isPage = req.headers.accept?.includes('text/html') ?? false;
  return isPage && /^\/login\/[^/]+\/callback(\?|$)/.test(req.url ?? '') ? '/index.html' : undefined;
}

/**
 * `@life/contracts` modules mix constants (STORAGE_KEYS, ROLES, LOGIN_PROVIDERS, CONTACT_SUBJECTS,
 * used by every page) with zod schemas built at the top level (`z.object(…).meta(…)`). A bundler
 * cannot know those calls are pure, so one constant used to keep its module's schemas, and zod,
 * in the first paint's JavaScript. Building a schema has no effect beyond its value here (the SPA
 * never reads zod's global registry), so this marks each top-level `const` initialiser that calls
 * something as pure: `/* @__PURE__ *\/ (() => init)()`. An unused schema then drops out; a used
 * one is built as before. Build only (tests run the modules as they are). Issue 15.
 */
function pureContractSchemas(): Plugin {
  return {
    name: 'life:pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]libs[\\/]contracts[\\/]dist[\\/][^\\/]+\.js$/.test(id)) return null;
      const program = this.parse(code) as unknown as { body: ProgramNode[] };
      const inits: { start: number; end: number }[] = [];
      for (const statement of program.body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
        for (const declarator of declaration.declarations ?? []) {
          const init = declarator.init;
          if (init && code.slice(init.start, init.end).includes('(')) inits.push(init);
        }
      }
      let out = code;
      for (const { start, end } of inits.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/**
 * `import('./locales/es.json?all')`: the whole locale file as a module of its own. i18n.ts imports
 * a few of its top-level keys by name for the first paint, and a file imported both ways would
 * travel whole in the first chunk; the query makes the full copy a separate, lazily loaded chunk.
 */
function wholeLocaleFile(): Plugin {
  return {
    name: 'life:whole-locale-file',
    load(id) {
      if (!id.endsWith('.json?all')) return null;
      return { code: `export default ${readFileSync(id.slice(0, -'?all'.length), 'utf8')};`, moduleType: 'js' };
    },
  };
}

interface ProgramNode {
  type: string;
  kind?: string;
  declaration?: ProgramNode | null;
  declarations?: { init?: { start: number; end: number } | null }[];
}

const proxy: Record<string, ProxyOptions> = {
  '/api': { target: backend, changeOrigin: false },
  '/login': { target: backend, changeOrigin: false, bypass: spaCallbackBypass },
};

export default defineConfig({
  plugins: [
    // Must come before the React plugin.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    pureContractSchemas(),
    wholeLocaleFile(),
    react(),
    tailwindcss(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Every browser the app supports preloads modules itself (modulepreload): no polyfill in the first chunk.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks cache across deploys; app code stays split per route.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            // Only imported on demand by the checkout (sessionId branch): keep it out of the eager vendor chunk.
            { name: 'stripe', test: /node_modules[\\/]@stripe[\\/]/, priority: 40 },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
            // Every page's first render translates: i18next in a chunk of its own name.
            { name: 'i18next', test: /node_modules[\\/]i18next[\\/]/, priority: 20 },
            // Dialogs, sheets, tooltips: loaded after the first paint (the header's when idle), never before it.
            {
              name: 'radix',
              test: /node_modules[\\/](@radix-ui|@floating-ui|radix-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|tslib)[\\/]/,
              priority: 20,
            },
            // Validation: loaded with the first API answer that needs a schema, never before the first paint.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});
