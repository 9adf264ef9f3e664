import { csvField, csvRecord, membersCsvHeader, membersCsvRecords } from './members-csv.js';

describe('members CSV', () => {
  it('quotes per RFC 4180 only when needed, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(12)).toBe('12');
    expect(csvRecord(['x', 1])).toBe('x,1\r\n');
  });

  it('turns a cell that a spreadsheet would run as a formula into text', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    // Excel where `;` separates list items splits a cell there: what follows a `;` is neutralised too.
    expect(csvField('a;=1+1@evil.example')).toBe("a;'=1+1@evil.example");
    expect(csvField('x;y@example.com')).toBe('x;y@example.com');
    // Numbers of ours are never prefixed.
    expect(csvField(-3)).toBe('-3');
  });

  it('names the columns, statuses and erased accounts in the reader’s language', () => {
    expect(membersCsvHeader('es')).toBe('Número de miembro,Email,Edición,Estado,Precio mensual (EUR),Alta,Estado desde\r\n');
    expect(membersCsvHeader('en')).toBe('Member number,Email,Edition,Status,Monthly price (EUR),Joined,Status since\r\n');
    const member = {
      member_number: 7,
      email: null,
      erased: true,
      edition: 'prestige' as const,
      status: 'refunded' as const,
      price_cents: 300,
      since: '2026-11-01T10:00:00.000Z',
      status_at: '2026-11-02T10:00:00.000Z',
    };
    expect(membersCsvRecords([member], 'es')).toBe('7,Cuenta eliminada,Prestige,Reembolsada,3.00,2026-11-01T10:00:00.000Z,2026-11-02T10:00:00.000Z\r\n');
    expect(membersCsvRecords([member], 'de')).toBe('7,Konto gelöscht,Prestige,Erstattet,3.00,2026-11-01T10:00:00.000Z,2026-11-02T10:00:00.000Z\r\n');
  });
});
