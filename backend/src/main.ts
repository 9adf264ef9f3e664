// Checks the Node version before anything else loads: the stack's modules fail on older Nodes
// with errors that say nothing about the version.
import { assertNodeVersion } from './core/node-version.js';

assertNodeVersion();
const { main, onError } = await import('./entry/web.js');
main().catch(onError);
