import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));

/** Where the API's texts are written: the backend's sources and the shared contracts. */
const ROOTS = [resolve(here, '../../src'), resolve(here, '../../../libs/contracts/src')];
/**
 * Not texts the API answers with: command-line tools, benchmarks, schema migrations, the message
 * catalogs themselves, and the seed rows of the service and login-provider catalogs (data an admin
 * edits; the dashboard shows their descriptions from its own translations, by service name).
 */
const SKIPPED = [
  /\.spec\.ts$/,
  /\.test\.ts$/,
  /\/bench\//,
  /\/migrations\//,
  /\/cli\.ts$/,
  /\/core\/i18n\/locales\//,
  /\/catalog\.defaults\.ts$/,
  /\/login-providers\.defaults\.ts$/,
];

/**
 * Texts the scan finds that are not for translation, with the reason. Any other Spanish sentence
 * in the sources is a message written in place instead of by id, and fails the i18n test.
 */
export const UNTRANSLATED: Readonly<Record<string, string>> = {
  'Admin only.': 'English: the OpenAPI document, for developers',
  'Key rotation pass finished: {0}.': 'an English log line',
  'Proveedor de identidad de desarrollo': 'the development identity provider page (never in production)',
  'Privacidad y protección de datos': 'subject line of an e-mail to the company',
  'Queued {0} connection refresh(es)': 'an English log line',
  'Queued {0} view fetch(es)': 'an English log line',
  'Push para {branch}': 'a "Tu día" view\'s own words, written into the snapshot in the person\'s language (providers/github.ts, Portuguese)',
  'Sin título': 'a "Tu día" view\'s own words, written into the snapshot in the person\'s language (providers/notion.ts)',
  'Sem título': 'a "Tu día" view\'s own words, written into the snapshot in the person\'s language (providers/notion.ts, Portuguese)',
  'Ejemplo Vida Digital, S.L. (datos ficticios)': 'company details on the legal pages, which stay in Spanish',
  'Calle Ficticia 1, 28000 Madrid, España (dirección de ejemplo)': 'company details on the legal pages',
  'B00000000 (ficticio)': 'company details on the legal pages',
  'Mensaje recibido desde la página de contacto de Life.': 'e-mail to the company, which works in Spanish',
  'Responde a este correo para contestar a {0} ({1}).': 'e-mail to the company',
  'Conecta tu vida y aprovéchala cada día. Errors are JSON `{ error, message }`.': 'OpenAPI document title for developers',
};

/** Words only Spanish sentences have (accents aside). */
const SPANISH = /[áéíóúñ¿¡]|\b(el|la|los|las|del|un|una|tu|tus|este|esta|ese|esa|para|con|por|ya|hay|falta|debe|solo|puede|es|de|que|se|ningún|ninguna)\b/i;
/** Words English sentences have: a sentence with none of them and no Spanish marker is still ours. */
const ENGLISH = /\b(the|is|are|an?|to|of|and|or|not|no|has|have|must|with|for|this|be|at|in|on|by|it|its|was|run|set|see)\b/i;

/** A sentence for people in Spanish: capitalised, several words, and Spanish words or no English ones. */
function looksSpanish(text: string): boolean {
  if (!/^[A-ZÁÉÍÓÚ¿¡]/.test(text) || !text.includes(' ')) return false;
  return SPANISH.test(text) || (!ENGLISH.test(text) && /[.?!]$/.test(text));
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !SKIPPED.some((pattern) => pattern.test(path)) ? [path] : [];
  });
}

/** A template literal as a catalog key: each `${…}` becomes `{0}`, `{1}`… in order. */
function templateKey(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span, index) => `{${index}}${span.literal.text}`).join('');
}

function visitSources(visitor: (node: ts.Node, where: () => string) => void): void {
  for (const root of ROOTS) {
    for (const path of files(root)) {
      const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
      const where = (node: ts.Node) => () => `${relative(resolve(here, '../../..'), path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const visit = (node: ts.Node) => {
        visitor(node, where(node));
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
}

/** Every Spanish sentence in the API's sources (templates as `{0}`, `{1}`…), with where it is written. */
export function apiSpanishTexts(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  visitSources((node, where) => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = templateKey(node);
    if (text !== undefined && looksSpanish(text) && !ts.isImportDeclaration(node.parent)) found.set(text, [...(found.get(text) ?? []), where()]);
  });
  return found;
}

/** Files that pass `msg` an id they hold in a variable, with the reason. Everywhere else it is a literal. */
const DYNAMIC_IDS: Readonly<Record<string, string>> = {
  'backend/src/core/i18n/zod-locale.ts': 'the id a contract gave zod, checked with isMessageId first',
};

/** A message id as the contracts write it for zod (`validation.nameRequired`). */
const CONTRACT_ID = /^validation\.[a-z][A-Za-z0-9]*$/;

/**
 * Every message id the sources use: the first argument of each `msg('…')` call, and the ids the
 * contracts give zod as messages. Each must exist, and each id of the catalog must be used.
 */
export function usedMessageIds(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (id: string, where: string) => found.set(id, [...(found.get(id) ?? []), where]);
  visitSources((node, where) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'msg') {
      const [first] = node.arguments;
      const at = where();
      if (first && ts.isStringLiteral(first)) add(first.text, at);
      else if (!(at.split(':')[0]! in DYNAMIC_IDS)) add(`(not a literal: ${first?.getText()})`, at);
    } else if (ts.isStringLiteral(node) && CONTRACT_ID.test(node.text)) add(node.text, where());
  });
  return found;
}
