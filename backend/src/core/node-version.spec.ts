import { nodeVersionProblem } from './node-version.js';

describe('nodeVersionProblem', () => {
  it('accepts Node 24.9 and later', () => {
    expect(nodeVersionProblem('24.9.0')).toBeUndefined();
    expect(nodeVersionProblem('24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('26.1.0')).toBeUndefined();
  });

  it('names the version and the fix for older ones', () => {
    expect(nodeVersionProblem('20.20.2')).toBe('Life needs Node.js >= 24.9 (this is 20.20.2). Start it with npm (npm start), which uses the pinned Node 24.');
    expect(nodeVersionProblem('24.8.1')).toContain('>= 24.9');
  });
});
