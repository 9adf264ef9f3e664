import { describe, expect, it } from 'vitest';
import { CLIENT_ID_MAX_LENGTH, DESCRIPTION_MAX_LENGTH, truncate } from './truncate';

describe('truncate', () => {
  it('cuts to 40 characters by default and adds an ellipsis', () => {
    const text = 'Inicia sesión con tu cuenta de GitHub para entrar en Life.';
    expect(DESCRIPTION_MAX_LENGTH).toBe(40);
    expect(truncate(text)).toBe('Inicia sesión con tu cuenta de GitHub pa…');
    expect(truncate(text)).toBe(`${text.slice(0, 40)}…`);
  });

  it('leaves texts of 40 characters or fewer alone', () => {
    const forty = 'x'.repeat(40);
    expect(truncate(forty)).toBe(forty);
    expect(truncate('Corto')).toBe('Corto');
    expect(truncate('')).toBe('');
  });

  it('accepts another limit (24 for client IDs)', () => {
    expect(truncate('abcdefghijklmnopqrstuvwxyz0123', CLIENT_ID_MAX_LENGTH)).toBe('abcdefghijklmnopqrstuvwx…');
  });

  it('does not leave a space before the ellipsis', () => {
    expect(truncate('Hola mundo y más', 11)).toBe('Hola mundo…');
  });

  it('counts an emoji as one character and never splits it', () => {
    expect(truncate('🎵🎵🎵🎵', 2)).toBe('🎵🎵…');
  });
});
