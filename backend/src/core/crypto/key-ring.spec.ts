import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KeyRing, KeyRingError, loadKeyRing } from './key-ring.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('KeyRing', () => {
  it('round-trips and never stores the plaintext', () => {
    const ring = KeyRing.parse(key('a'));
    const stored = ring.encrypt('gho_secret_token');
    expect(stored).not.toContain('gho_secret_token');
    expect(stored.startsWith('v1.a.')).toBe(true);
    expect(ring.decrypt(stored)).toBe('gho_secret_token');
  });

  it('uses a fresh IV every time', () => {
    const ring = KeyRing.parse(key('a'));
    expect(ring.encrypt('same')).not.toBe(ring.encrypt('same'));
  });

  it('decrypts values of older keys after rotation', () => {
    const oldSpec = key('old');
    const old = KeyRing.parse(oldSpec);
    const stored = old.encrypt('value');
    const rotated = KeyRing.parse(`${key('new')},${oldSpec}`);
    expect(rotated.primaryId).toBe('new');
    expect(rotated.decrypt(stored)).toBe('value');
    expect(KeyRing.keyIdOf(rotated.encrypt('value'))).toBe('new');
  });

  it('detects tampering and binds associated data', () => {
    const ring = KeyRing.parse(key('a'));
    const stored = ring.encrypt('value', 'row-1');
    expect(() => ring.decrypt(stored, 'row-2')).toThrow();
    const parts = stored.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => ring.decrypt(parts.join('.'), 'row-1')).toThrow();
  });

  it('rejects malformed key specs', () => {
    expect(() => KeyRing.parse('nocolon')).toThrow(KeyRingError);
    expect(() => KeyRing.parse(`a:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/);
    expect(() => KeyRing.parse(`${key('a')},${key('a')}`)).toThrow(/twice/);
    expect(() => KeyRing.parse('')).toThrow(KeyRingError);
  });

  it('refuses to decrypt with an unknown key id', () => {
    const stored = KeyRing.parse(key('a')).encrypt('x');
    expect(() => KeyRing.parse(key('b')).decrypt(stored)).toThrow(/not in ENCRYPTION_KEYS/);
  });

  it('gives a stable keyed hash per purpose that hides the value', () => {
    const spec = key('a');
    const ring = KeyRing.parse(spec);
    const hash = ring.keyedHash('contact-ip', '203.0.113.7');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(KeyRing.parse(spec).keyedHash('contact-ip', '203.0.113.7')).toBe(hash);
    expect(ring.keyedHash('other-purpose', '203.0.113.7')).not.toBe(hash);
    expect(KeyRing.parse(key('a')).keyedHash('contact-ip', '203.0.113.7')).not.toBe(hash);
  });

  it('generates and keeps a development key, but never in production', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'life-keys-'));
    const first = loadKeyRing(undefined, dir, false);
    expect(first.generated).toBe(true);
    const second = loadKeyRing(undefined, dir, false);
    expect(second.generated).toBe(false);
    expect(second.ring.decrypt(first.ring.encrypt('kept'))).toBe('kept');
    expect(() => loadKeyRing(undefined, dir, true)).toThrow(/production/);
  });
});
