import { isHighlyRestrictive } from '@life/contracts';
import { usernameCandidate } from './users.service.js';

/** Usernames shown to others cannot pass for someone else's by mixing scripts (issue 18, point 8e; decision 0032). */
describe('usernames: TR39 Highly Restrictive', () => {
  it('refuses a mix of scripts: Cyrillic or Greek among Latin letters, Arabic-Indic digits after Latin', () => {
    for (const name of [
      '\u0430dmin',
      'p\u0430ypal',
      'G\u043eogle',
      '\u0395\u03bb\u03ad\u03bd\u03b7a',
      'user\u0663',
      '\u0645\u062d\u0645\u062fa',
      '\u0430\u0434\u043c\u0438\u043da',
    ]) {
      expect([name, isHighlyRestrictive(name)]).toEqual([name, false]);
    }
  });

  it('accepts one script, with the Common characters (digits, _ . -), and Latin with Japanese, Chinese or Korean writing', () => {
    for (const name of [
      'admin',
      'José.María',
      'Straße_1',
      'админ',
      'Ελένη',
      'محمد_1',
      '山田太郎',
      '田中さん',
      'タナカ-01',
      'Tanaka田中',
      'wang王ㄅ',
      '김철수',
      'kim김철수',
      'ＡＢＣ',
    ]) {
      expect([name, isHighlyRestrictive(name)]).toEqual([name, true]);
    }
  });

  it("a sign-in's suggested name: the provider's name, else the e-mail's local part, else 'usuario', never a mix", () => {
    expect(usernameCandidate('octo-cat', 'x@example.com')).toBe('octo-cat');
    expect(usernameCandidate('Jos\u0435 Lopez', 'jose.lopez@example.com')).toBe('jose.lopez');
    expect(usernameCandidate('\u0430dmin', '\u0430dmin@example.com')).toBe('usuario');
    expect(usernameCandidate('山田 太郎', 'taro@example.com')).toBe('山田太郎');
  });
});
