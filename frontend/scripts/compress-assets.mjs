// After `vite build`: writes a Brotli (.br) and a gzip (.gz) copy next to every text asset of
// dist/assets, so the backend's static server (@fastify/static, preCompressed) sends the smallest
// encoding the browser accepts without compressing on each request. Hashed names never change,
// so this runs once per build.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const assets = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'assets');
const TEXT = /\.(js|css|svg|json|txt|map)$/;
/** Below this, the encoding's headers outweigh the saving. */
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
for (const name of readdirSync(assets)) {
  if (!TEXT.test(name)) continue;
  const file = path.join(assets, name);
  const content = readFileSync(file);
  if (content.length < MIN_BYTES) continue;
  const br = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  files += 1;
  before += content.length;
  after += br.length;
}
console.log(`compress-assets: ${files} files, ${Math.round(before / 1024)} kB → ${Math.round(after / 1024)} kB with Brotli (plus .gz copies)`);
