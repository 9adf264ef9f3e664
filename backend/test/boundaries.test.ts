import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { KNOWN_CROSSINGS, KNOWN_TABLE_CROSSINGS, RAW_SQL_FILES } from './helpers/boundaries.allowlist.js';

/**
 * The module boundaries of docs/architecture.md, checked over the source (no app is started):
 * - core/ and config/ are leaves: they import no module and not the composition root;
 * - a module imports another module only through its `public/` folder or its Nest module file
 *   (and entities may point at users' User for foreign keys);
 * - each table belongs to the module whose entities declare it, and no code outside that module
 *   names it in SQL;
 * - raw SQL strings stay in a short list of files, each with a count that may only go down.
 * The allowlists (test/helpers/boundaries.allowlist.ts) hold today's known exceptions with a
 * reason; an entry that is no longer needed fails too, so the lists only shrink.
 */

const here = dirname(fileURLToPath(import.meta.url));
const SRC = resolve(here, '../src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const FILES = walk(SRC)
  .map((file) => relative(SRC, file))
  .filter((file) => !file.startsWith('migrations/'))
  .sort();

const parsed = new Map<string, ts.SourceFile>();
function source(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

/** Every relative import of a file, resolved to a path under src/ ('.js' written as '.ts'). */
function importsOf(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = node.moduleSpecifier;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(relative(SRC, resolve(SRC, dirname(file), specifier.text)).replace(/\.js$/, '.ts'));
    }
    ts.forEachChild(node, visit);
  };
  visit(source(file));
  return found;
}

/** The text of every string and template literal (template parts joined by a placeholder). */
function stringsOf(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) found.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}'));
    // Import paths are not strings of the program, nor are decorator arguments (routes such as
    // @Controller('oauth_clients') that happen to read like a table).
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isDecorator(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(source(file));
  return found;
}

const moduleOf = (file: string): string | null => /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/** A string that is a SQL statement (what MikroORM's typed API would otherwise build). */
const SQL_STATEMENT = /^\s*(select|insert\s+into|update\s+\S+\s+(as\s+\S+\s+)?set|delete\s+from|with\s+\w+\s+as\s*\()\b/i;

describe('Module boundaries', () => {
  it('core and config import no module and not the composition root', () => {
    const offending = FILES.filter((file) => /^(core|config)\//.test(file)).flatMap((file) =>
      importsOf(file)
        .filter((target) => /^(modules\/|app\.module|bootstrap|entities|database|entry\/|cli)/.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('a module reaches another only through its public/ folder or its Nest module', () => {
    const crossings: string[] = [];
    for (const file of FILES) {
      const from = moduleOf(file);
      if (!from) continue;
      for (const target of importsOf(file)) {
        const to = moduleOf(target);
        if (!to || to === from) continue;
        const isPublic = target.startsWith(`modules/${to}/public/`) || target === `modules/${to}/${to}.module.ts`;
        // Foreign keys: an entity may reference the person it belongs to.
        const isForeignKey = file.startsWith(`modules/${from}/entities/`) && target === 'modules/users/entities/user.entity.ts';
        if (!isPublic && !isForeignKey) crossings.push(`${file} -> ${target}`);
      }
    }
    const unexpected = crossings.filter((crossing) => !(crossing in KNOWN_CROSSINGS));
    const stale = Object.keys(KNOWN_CROSSINGS).filter((crossing) => !crossings.includes(crossing));
    expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
  });

  it('each table has one owning module, and no other module names it in SQL', () => {
    const owner = new Map<string, string>();
    for (const file of FILES.filter((file) => /^modules\/[^/]+\/entities\/.+\.entity\.ts$/.test(file))) {
      for (const match of readFileSync(join(SRC, file), 'utf8').matchAll(/tableName:\s*'([a-z_]+)'/g)) {
        expect(owner.get(match[1]!) ?? moduleOf(file)).toBe(moduleOf(file));
        owner.set(match[1]!, moduleOf(file)!);
      }
    }
    expect(owner.size).toBeGreaterThan(15);
    const crossings: string[] = [];
    for (const file of FILES) {
      const from = moduleOf(file);
      const texts = stringsOf(file);
      for (const [table, module] of owner) {
        if (module === from) continue;
        const named = new RegExp(`(^|[\\s,(."])${table}($|[\\s,).";])`);
        // SQL that names the table, or the bare table name handed to code that builds SQL.
        if (texts.some((text) => text === table || (named.test(text) && /\b(from|join|into|update|table)\b/i.test(text)))) {
          crossings.push(`${file} -> ${table}`);
        }
      }
    }
    const unexpected = crossings.filter((crossing) => !(crossing in KNOWN_TABLE_CROSSINGS));
    const stale = Object.keys(KNOWN_TABLE_CROSSINGS).filter((crossing) => !crossings.includes(crossing));
    expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
  });

  it('raw SQL strings stay in the listed files, never more of them than listed', () => {
    const counts: Record<string, number> = {};
    for (const file of FILES) {
      const count = stringsOf(file).filter((text) => SQL_STATEMENT.test(text)).length;
      if (count > 0) counts[file] = count;
    }
    // A new file with SQL, or more SQL in a listed one, fails; so does a count that went down
    // without the list going down with it (lower the number in the allowlist).
    expect(counts).toEqual(RAW_SQL_FILES);
  });

  it('controllers only validate and dispatch: none touches the database, none lives outside a module', () => {
    const controllers = FILES.filter((file) => file.endsWith('.controller.ts'));
    expect(controllers.length).toBeGreaterThan(10);
    const touching = controllers.filter((file) => /from '@mikro-orm\//.test(readFileSync(join(SRC, file), 'utf8')));
    expect(touching).toEqual([]);
    // The admin panel's HTTP surface is the admin module's; it owns no table.
    const adminFiles = FILES.filter((file) => file.startsWith('modules/admin/'));
    expect(adminFiles.filter((file) => !/\.(controller|module)\.ts$/.test(file))).toEqual([]);
  });

  it('controllers and queue processors only validate and dispatch: they are given the buses, not services', () => {
    // Framework and configuration are fine; a module's services, repositories or EntityManager are not.
    const allowed = new Set(['CommandBus', 'QueryBus', 'AppConfig', 'Reflector']);
    // The public health probe is terminus over its indicators: infrastructure, not a state change.
    const exempt = new Set(['modules/health/health.controller.ts']);
    const offending: string[] = [];
    for (const file of FILES.filter((name) => name.startsWith('modules/') && /\.(controller|processor)\.ts$/.test(name) && !exempt.has(name))) {
      const visit = (node: ts.Node) => {
        if (ts.isConstructorDeclaration(node)) {
          for (const parameter of node.parameters) {
            const type = parameter.type?.getText() ?? '?';
            if (!allowed.has(type)) offending.push(`${file}: ${parameter.name.getText()}: ${type}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source(file));
    }
    expect(offending).toEqual([]);
  });

  it('the checks see what they are meant to see', () => {
    // Guards against a scan that silently finds nothing (a moved folder, a parser change).
    expect(importsOf('modules/oauth-server/app-resources.service.ts')).toContain('modules/external-services/public/queries.ts');
    expect(stringsOf('core/crypto/sealed-columns.ts').some((text) => SQL_STATEMENT.test(text))).toBe(true);
    expect(FILES.length).toBeGreaterThan(100);
  });
});
