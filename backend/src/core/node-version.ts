/** The pinned runtime is Node 24 LTS; older Nodes miss APIs the stack relies on. */
export function assertNodeVersion(version = process.versions.node): void {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < 24 || (major === 24 && minor < 9)) {
    console.error(`Life needs Node.js >= 24.9 (this is ${version}). Start it with npm (npm start), which uses the pinned Node 24.`);
    process.exit(1);
  }
}
