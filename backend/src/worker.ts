// Checks the Node version before anything else loads (see main.ts).
import { assertNodeVersion } from './core/node-version.js';

assertNodeVersion();
const { main, onError } = await import('./entry/worker.js');
main().catch(onError);
