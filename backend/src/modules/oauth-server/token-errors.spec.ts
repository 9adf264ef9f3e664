import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { LANGUAGES } from '@life/contracts';
import { render } from '../../core/i18n/messages.js';
import { libraryErrorText } from './token-endpoint.service.js';

/** Every English sentence @node-oauth/oauth2-server can answer a token request with. */
function libraryMessages(): string[] {
  const lib = path.join(path.dirname(createRequire(import.meta.url).resolve('@node-oauth/oauth2-server/package.json')), 'lib');
  const files = ['handlers/token-handler.js', ...readdirSync(path.join(lib, 'grant-types')).map((f) => `grant-types/${f}`)];
  const found = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(path.join(lib, file), 'utf8').matchAll(/new (\w+Error)\('([^']+)'\)/g)) {
      // InvalidArgument and Server errors are our own mistakes: answered as 500, never shown.
      if (!['InvalidArgumentError', 'ServerError'].includes(match[1]!)) found.add(match[2]!);
    }
  }
  return [...found];
}

describe('the token endpoint’s errors in the person’s language', () => {
  const messages = libraryMessages();

  it('finds the library’s sentences (the list this spec guards)', () => {
    expect(messages.length).toBeGreaterThan(25);
    expect(messages).toContain('Invalid grant: code verifier is invalid');
  });

  it.each(messages)('%s → a sentence of ours in every language', (english) => {
    const text = libraryErrorText(english);
    for (const language of LANGUAGES) {
      const rendered = render(text, language);
      expect(rendered).not.toBe(english);
      expect(rendered).not.toMatch(/\{\{|^Invalid |^Missing /);
    }
  });

  it('names the parameter and the reason', () => {
    expect(render(libraryErrorText('Missing parameter: `code_verifier`'), 'es')).toBe('Falta el parámetro code_verifier.');
    expect(render(libraryErrorText('Invalid grant: code verifier is invalid'), 'ja')).toContain('code_verifier');
    expect(render(libraryErrorText('Invalid grant: authorization code has expired'), 'es')).toMatch(/caducado/);
    expect(render(libraryErrorText('Invalid grant: refresh token is invalid'), 'de')).toMatch(/Aktualisierungstoken/);
  });
});
