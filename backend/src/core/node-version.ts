/** The pinned runtime is Node 24 LTS; older Nodes miss APIs the stack relies on. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 24 || (major === 24 && minor >= 9)) return undefined;
  return `Life needs Node.js >= 24.9 (this is ${version}). Start it with npm (npm start), which uses the pinned Node 24.`;
}

export function assertNodeVersion(version = process.versions.node): void {
  const problem = nodeVersionProblem(version);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
