// Writes src/routeTree.gen.ts (git-ignored) so `tsc` can type-check without a prior
// `vite build`. Uses the same generator and defaults as the Vite router plugin.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Generator, getConfig } from '@tanstack/router-generator';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const config = getConfig({ target: 'react', autoCodeSplitting: true }, root);
await new Generator({ config, root }).run();
