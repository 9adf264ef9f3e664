// Lint for the whole monorepo. Type-aware rules (floating promises, exhaustive
// switches) use the TypeScript project service.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Frontend boundaries (frontend/README.md, 'Layout'): a feature (`src/features/<name>/`) never imports another
 * feature, and the shared layers (`src/components`, `src/lib`, `src/shared`, `src/i18n`, `src/test`) import no
 * feature at all. Only the composition root, `src/routes` and `src/app`, puts features together. One block per
 * feature folder, read from the disk, so a new feature is covered without touching this file.
 */
const FRONTEND_SRC = 'frontend/src';
const FEATURES = readdirSync(new URL(`./${FRONTEND_SRC}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const CROSS_FEATURE_MESSAGE =
  'A feature must not import another feature. Move what both need to src/shared, src/lib or src/components, or put the features together in src/routes (frontend/README.md).';
const SHARED_LAYER_MESSAGE = 'Shared code must not import a feature: only src/routes and src/app compose features (frontend/README.md).';
const LEAVING_FEATURE_MESSAGE = "A relative import must not leave its feature folder: import other code through '@/...'.";

/** Both `import ... from` (no-restricted-imports) and `import()` (no-restricted-syntax): the same forbidden sources. */
function forbidImports(files, patterns) {
  // esquery's regex literals cannot hold '/': write it as \x2F.
  const selectors = patterns.map(({ regex, message }) => ({
    selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`,
    message,
  }));
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: patterns.map(({ regex, message }) => ({ regex, message })) }],
      'no-restricted-syntax': ['error', ...selectors],
    },
  };
}

function featureBoundaries(feature) {
  const otherFeature = { regex: `^@/features/(?!${feature}(/|$))`, message: CROSS_FEATURE_MESSAGE };
  return [
    // From features/<name>/<folder>/..., '../../' is already outside the feature.
    forbidImports([`${FRONTEND_SRC}/features/${feature}/**/*.{ts,tsx}`], [otherFeature, { regex: '^(\\.\\./){2,}', message: LEAVING_FEATURE_MESSAGE }]),
    // From a file at the feature's top (features/<name>/sections.ts), '../' is.
    forbidImports([`${FRONTEND_SRC}/features/${feature}/*.{ts,tsx}`], [otherFeature, { regex: '^\\.\\./', message: LEAVING_FEATURE_MESSAGE }]),
  ];
}

const frontendBoundaries = [
  forbidImports(
    ['components', 'lib', 'shared', 'i18n', 'test'].map((layer) => `${FRONTEND_SRC}/${layer}/**/*.{ts,tsx}`),
    [{ regex: '^(@/|(\\.\\./)+)features(/|$)', message: SHARED_LAYER_MESSAGE }],
  ),
  ...FEATURES.flatMap(featureBoundaries),
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.artifacts/**', 'frontend/src/routeTree.gen.ts', 'data/**', '**/coverage/**', 'docs/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...frontendBoundaries,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
