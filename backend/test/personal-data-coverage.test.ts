import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Decision 0013/0015: each module exports its own part of a person's data. A table that points at
 * the person (a foreign key to users) and that no module's export handler reads would be a silent
 * gap in 'Descargar mis datos': this check fails then, unless the table is listed below with why.
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const NOT_EXPORTED: Readonly<Record<string, string>> = {
  oauth_codes: 'authorization codes live ten minutes and are spent once; the grants and tokens they led to are exported',
};

const modules = readdirSync(join(SRC, 'modules'));
const entityFiles = modules.flatMap((module) => {
  const dir = join(SRC, 'modules', module, 'entities');
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.entity.ts'))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
});
/** The export handlers, and data-rights' own list of exports. */
const exportSources = [
  ...modules
    .map((module) => join(SRC, 'modules', module, 'handlers', 'personal-data.handler.ts'))
    .filter((file) => {
      try {
        readFileSync(file);
        return true;
      } catch {
        return false;
      }
    }),
  join(SRC, 'modules', 'data-rights', 'personal-data.repository.ts'),
].map((file) => readFileSync(file, 'utf8'));

describe("'Descargar mis datos' covers every table about a person", () => {
  const personal = entityFiles
    .map((file) => readFileSync(file, 'utf8'))
    .filter((source) => /@(ManyToOne|OneToOne)\(\(\) => User\b/.test(source))
    .map((source) => /tableName:\s*'([a-z_]+)'/.exec(source)![1]!);

  it('finds the tables that point at the person', () => {
    expect(personal).toEqual(expect.arrayContaining(['sessions', 'service_connections', 'oauth_tokens', 'memberships', 'data_exports']));
  });

  it('has an export handler reading each one, or a reason it is left out', () => {
    const missing = personal.filter(
      (table) =>
        !(table in NOT_EXPORTED) && !exportSources.some((source) => new RegExp(`\\bfrom ${table}\\b|selectFrom\\('${table}(?: as \\w+)?'\\)`).test(source)),
    );
    expect(missing).toEqual([]);
    // And no stale reason.
    expect(Object.keys(NOT_EXPORTED).filter((table) => !personal.includes(table))).toEqual([]);
  });

  it('has one export handler per module that owns such a table', () => {
    expect(exportSources.length).toBeGreaterThanOrEqual(8);
  });
});
