import { describe, expect, it } from 'vitest';
import { cn, normalizeForSearch } from './utils';

describe('normalizeForSearch', () => {
  it('drops accents and case', () => {
    expect(normalizeForSearch('  JAPÓN ')).toBe('japon');
    expect(normalizeForSearch('Alemán')).toBe('aleman');
    expect(normalizeForSearch('Portugués')).toBe('portugues');
  });
});

describe('cn', () => {
  it('drops falsy values and lets later Tailwind classes win', () => {
    const hidden = false;
    expect(cn('px-4 text-sm', hidden && 'hidden', undefined, 'px-2')).toBe('text-sm px-2');
  });
});
