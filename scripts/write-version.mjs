// Writes the app's version and build time next to the compiled backend (shown in health).
import { readFileSync, writeFileSync } from 'node:fs';
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
writeFileSync(process.argv[2], JSON.stringify({ version: pkg.version, builtAt: new Date().toISOString() }) + '\n');
